dfg::fill_initial_tokens_with<$elem$>($m$, elements_$t$(params), [&](std::size_t j, $elem$* token, std::size_t elements) {
  $node$.actor.$fn$(j, token, elements);
});
