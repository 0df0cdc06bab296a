/// \file
/// The printer every generated file goes through: text with named substitutions (`$name$`) and
/// scoped indentation. An unbound or unused variable is dfgc's bug and fails at once; `$$` prints
/// one `$`. A substitution that spans several lines is indented to the column of its `$name$`,
/// so a template can place a whole block (`  $firings$`) and stay readable; a block that ends
/// with a newline absorbs the newline after its placeholder.
///
///   Printer p;
///   p.emit({{"node", "i1"}, {"pe", "A.g0"}}, "// node $node$ @ $pe$\n");
///   {
///     auto scope = p.indent();
///     p.emit("fire();\n");
///   }
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dfgc {

class Printer {
 public:
  using Vars = std::vector<std::pair<std::string_view, std::string>>;

  explicit Printer(int indent_width = 2) : width_(indent_width) {}

  /// Appends `text` with its `$name$` references replaced; each line that starts after a newline
  /// gets the current indentation (empty lines stay empty).
  void emit(const Vars& vars, std::string_view text);
  void emit(std::string_view text) { emit({}, text); }

  /// Indents everything emitted until the returned guard is destroyed.
  class [[nodiscard]] IndentGuard {
   public:
    explicit IndentGuard(Printer& p) : p_(&p) { p_->level_++; }
    IndentGuard(const IndentGuard&) = delete;
    IndentGuard& operator=(const IndentGuard&) = delete;
    ~IndentGuard() { p_->level_--; }

   private:
    Printer* p_;
  };
  IndentGuard indent() { return IndentGuard(*this); }

  const std::string& text() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void start_line();
  void put(char c);

  std::string out_;
  int width_;
  int level_ = 0;
  bool at_line_start_ = true;
  std::size_t extra_indent_ = 0;  ///< the column of a multi-line substitution being written
};

/// Renders a whole template file (see templates/): the same `$name$` rules as Printer::emit.
std::string render_template(std::string_view template_text, const Printer::Vars& vars);

/// The items of a list (an initializer, arguments, an enum) as one substitution, "a, b, c": no
/// separator after the last, so that the formatter packs them into as few lines as fit.
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");

}  // namespace dfgc
