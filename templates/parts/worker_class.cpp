/// $pe$: $what$.
class $cls$ final : public $base$ {
 public:
  $ctor$;

 private:
  void cycles_overlap(dfg::Where& where) override;
  void cycles_no_overlap(dfg::Where& where) override;
$members$};

