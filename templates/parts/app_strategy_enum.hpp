/// The firings, transfers and delay copies, in the order the threads run them.
enum Entry : std::size_t {
$names$};
