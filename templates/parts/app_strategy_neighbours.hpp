/// Per PE, the PEs it shares memory with: the owner of a colour and the launchers of
/// the transfers that touch it. --sync=neighbours waits for these only.
inline std::vector<std::vector<int>> neighbours() {
  return {
      $lists$
  };
}
