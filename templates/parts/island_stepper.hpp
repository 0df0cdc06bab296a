/// node $name$: its step on its rings.
struct Step_$name$ {
  $island$& island;
  bool step() { return island.$ident$_.step($args$); }
};
Step_$name$ step_$name$_{*this};
