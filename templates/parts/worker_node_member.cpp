dfg::Node<::$cls$, $ports$> $m$;  // node $label$ ($actor$)
