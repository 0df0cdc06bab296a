dfg::fill_initial_tokens<$elem$>($m$, elements_$t$(params), static_cast<$elem$>($value$));
