$cls$ $ident$_;  // block $block$: node $name$ ($actor$)
