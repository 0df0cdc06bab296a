const dfg::SlotView& $id$ = run_.memory.$pe$[$i$];  // buffer $name$$depth$
