std::array<dfg::SlotView, $n$> $pe$;
