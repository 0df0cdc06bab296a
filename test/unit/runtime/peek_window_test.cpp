// dfg::PeekWindow: each cycle's window is the history, then the block; the history is the
// stream's tokens before the block (the declared value before the stream), whether it is longer
// or shorter than a block, from any first cycle, and across a checkpoint's save and restore.
#include "dfg/peek_window.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dfg/state.hpp"

namespace {

/// Element e of the stream's token i (tokens of `elems` elements).
std::int64_t token(std::int64_t i, std::size_t e) { return i * 10 + static_cast<std::int64_t>(e); }

/// Cycle j's block: tokens j * tokens .. (j + 1) * tokens - 1.
std::vector<std::int64_t> block(std::int64_t j, std::size_t tokens, std::size_t elems) {
  std::vector<std::int64_t> b;
  for (std::size_t t = 0; t < tokens; ++t)
    for (std::size_t e = 0; e < elems; ++e)
      b.push_back(token(j * static_cast<std::int64_t>(tokens) + static_cast<std::int64_t>(t), e));
  return b;
}

/// Checks cycle j's window: `history` tokens before the block's first, `value` before the stream.
void check(const std::int64_t* w, std::int64_t j, std::size_t tokens, std::size_t history,
           std::size_t elems, std::int64_t value) {
  const std::int64_t first =
      j * static_cast<std::int64_t>(tokens) - static_cast<std::int64_t>(history);
  for (std::size_t t = 0; t < history + tokens; ++t)
    for (std::size_t e = 0; e < elems; ++e) {
      const std::int64_t i = first + static_cast<std::int64_t>(t);
      INFO("cycle " << j << ", token " << t << ", element " << e);
      REQUIRE(w[t * elems + e] == (i < 0 ? value : token(i, e)));
    }
}

}  // namespace

TEST_CASE("peek window: history longer and shorter than a block", "[peek_window]") {
  for (const auto [tokens, history] : {std::pair<std::size_t, std::size_t>{4, 7}, {4, 1}, {2, 2}}) {
    const std::size_t elems = 3;
    dfg::PeekWindow<std::int64_t> w("f.x window", tokens * elems, history * elems, -5);
    for (std::int64_t j = 0; j < 9; ++j) {
      const std::vector<std::int64_t> b = block(j, tokens, elems);
      check(w.window(j, b.data()), j, tokens, history, elems, -5);
    }
  }
}

TEST_CASE("peek window: a checkpoint's history resumes the stream", "[peek_window]") {
  const std::size_t tokens = 4, history = 7, elems = 2;
  dfg::PeekWindow<std::int64_t> before("f.x window", tokens * elems, history * elems, 7);
  dfg::State saved;
  for (std::int64_t j = 0; j < 5; ++j) {
    const std::vector<std::int64_t> b = block(j, tokens, elems);
    before.window(j, b.data());
    if (j == 2) before.save(saved);  // a checkpoint of iteration 3
  }
  // A restarted run numbers its cycles from 0; its window sees iteration 3's history.
  dfg::PeekWindow<std::int64_t> after("f.x window", tokens * elems, history * elems, 7);
  saved.rewind();
  after.restore(saved);
  for (std::int64_t j = 0; j < 4; ++j) {
    const std::vector<std::int64_t> b = block(3 + j, tokens, elems);
    check(after.window(j, b.data()), 3 + j, tokens, history, elems, 7);
  }
}
