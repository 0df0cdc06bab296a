/// \file
/// The layout of generated C++ and CUDA: every generated source is laid out by clang-format's
/// library (clang::format, of the libclang-cpp dfgc links for the actors, so it is there wherever
/// dfgc runs) with the style of the tree's .clang-format, compiled into dfgc: the text depends on
/// nothing but its input and dfgc's build (no file is read, no program run), and what dfgc writes
/// passes `clang-format-19 --dry-run -Werror` (ctest generated_clang_format). The printers write
/// the text and its comments; the line breaks, the alignment of trailing comments and the order of
/// the includes within a block are the formatter's.
///
/// Up to a size: clang-format takes about 5 us a byte of generated code, and far more on the
/// long initializer lists of large specs (the tables of a chain of 5,000 nodes: 35 s for its rank
/// file, 10 s for its app header, 1.7 GB). A source longer than the limit (kFormatLimit by
/// default, `dfgc compile --clang-format`) has its includes sorted but is otherwise written as the
/// printers lay it out: indented by scope, one statement a line, lines not broken at the column
/// limit. The limit depends on nothing but the text, so the output is as deterministic.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dfgc::codegen {

/// The size of the largest source laid out by clang-format by default: 128 KiB (a rank file of
/// about 150 nodes on one host, the app header of about 500; the samples' largest is 19 KiB).
inline constexpr std::size_t kFormatLimit = 128 * 1024;

/// `code` laid out in the .clang-format style: its includes sorted within their blocks, then,
/// when it is at most `limit` bytes, reformatted. `file_name` chooses the language (every
/// generated source is C++ or CUDA). Code clang-format cannot lay out is dfgc's bug.
std::string format_cpp(std::string_view code, std::string_view file_name,
                       std::size_t limit = kFormatLimit);

/// The .clang-format text compiled into dfgc.
std::string_view clang_format_style();

}  // namespace dfgc::codegen
