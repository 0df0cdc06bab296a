$cls$ $ident$_;  // node $name$ ($actor$)
