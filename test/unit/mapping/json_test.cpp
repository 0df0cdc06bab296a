// The JSON files of dfgc map: what is not a readable regular file of sane size, nesting deeper
// than kMaxJsonDepth, a key twice in one object and a number beyond a double are located user
// errors (mapping/json_document.hpp).
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "mapping/json_document.hpp"

using namespace dfgc;
namespace fs = std::filesystem;

namespace {

/// `text` parsed as the in-memory file "t.json".
struct Parsed {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  std::optional<mapping::JsonDocument> doc;

  explicit Parsed(std::string text) {
    doc = mapping::parse_json(sources.add_buffer("t.json", std::move(text)), sources, diags);
  }
  const Diagnostic& first() const { return diags.diagnostics().front(); }
};

/// `path` loaded as a costs file: the error message, or "" when it was read.
std::string load_error(const std::string& path) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  auto file = mapping::load_json_file(path, "costs file", sources, diags);
  CHECK(file.has_value() == !diags.has_errors());
  return diags.has_errors() ? diags.diagnostics().front().message : "";
}

}  // namespace

TEST_CASE("first_too_deep finds the first bracket past the bound, outside strings",
          "[mapping][json]") {
  CHECK(!mapping::first_too_deep("{\"a\": [[1]]}", 3));
  CHECK(mapping::first_too_deep("{\"a\": [[1]]}", 2) == 7u);
  CHECK(!mapping::first_too_deep("{\"a\": \"[[[[\\\"[[[[\"}", 1));  // in a string, escaped quote
  CHECK(!mapping::first_too_deep("[][][][]", 1));                   // siblings do not nest
  CHECK(!mapping::first_too_deep("]]]]][", 1));                     // invalid text is scanned too
}

TEST_CASE("JSON nested deeper than 64 is refused at the bracket, however deep", "[mapping][json]") {
  auto nested = [](std::size_t depth) {
    return "{\"x\": " + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
  };
  Parsed ok(nested(mapping::kMaxJsonDepth));
  INFO(ok.diags.render());
  CHECK(ok.doc);

  Parsed deep(nested(mapping::kMaxJsonDepth + 1));
  REQUIRE(!deep.doc);
  CHECK(deep.first().message == "JSON nested more than 64 deep");
  CHECK(deep.first().loc.offset == 6 + 63);  // the 65th opening bracket

  Parsed very_deep(nested(100000));  // a stack overflow in a recursive reader
  REQUIRE(!very_deep.doc);
  CHECK(very_deep.first().message == "JSON nested more than 64 deep");
}

TEST_CASE("a key given twice in one object is an error at the repeat, noted at the first",
          "[mapping][json]") {
  Parsed p("{\"actors\": {\"Inc\": {\"gpu\": 1, \"cpu\": 2, \"gpu\": 3}}}");
  REQUIRE(!p.doc);
  REQUIRE(p.diags.error_count() == 1);
  CHECK(p.first().message == "duplicate key 'gpu'; an object gives a key once");
  CHECK(p.first().loc.offset == 40);
  REQUIRE(p.first().notes.size() == 1);
  CHECK(p.first().notes[0].loc.offset == 20);

  // Escapes spell the same key (nlohmann decodes them too).
  Parsed escaped("{\"gpu\": 1, \"g\\u0070u\": 2, \"\\u00e9\": 3, \"\xc3\xa9\": 4}");
  REQUIRE(!escaped.doc);
  CHECK(escaped.diags.error_count() == 2);

  // After a byte order mark (nlohmann skips it).
  Parsed bom("\xEF\xBB\xBF{\"a\": 1, \"a\": 2}");
  REQUIRE(!bom.doc);
  CHECK(bom.first().loc.offset == 12);

  // The same key in two objects, and keys that differ by an escape, are no repeat.
  Parsed distinct("{\"a\": {\"k\": 1}, \"b\": {\"k\": 1}, \"x\\ny\": 1, \"xny\": 2}");
  INFO(distinct.diags.render());
  CHECK(distinct.doc);
}

TEST_CASE("a number beyond a double is a located error, not an exception", "[mapping][json]") {
  for (const char* number : {"1e309", "-1e309",
                             "1"
                             "00000000000000000000000000000000000000000"
                             "0000000000000000000000000000000000000000000"
                             "0000000000000000000000000000000000000000000"
                             "0000000000000000000000000000000000000000000"
                             "0000000000000000000000000000000000000000000"
                             "0000000000000000000000000000000000000000000"
                             "0000000000000000000000000000000000000000000"
                             "0000000000000000000000000000000000000000000"}) {
    INFO(number);
    Parsed p(std::string("{\"cpu\":  ") + number + "}");
    REQUIRE(!p.doc);
    CHECK(p.first().message ==
          std::string("invalid JSON: number ") + number + " is beyond the range of a double");
    CHECK(p.first().loc.offset == 9);
    CHECK(p.first().length == std::string(number).size());
  }
  Parsed syntax("{\"cpu\": 1,}");
  REQUIRE(!syntax.doc);
  CHECK(syntax.first().message.starts_with("invalid JSON: syntax error"));
  CHECK(syntax.first().loc.offset == 10);
}

TEST_CASE("only a regular file of at most 64 MiB is read", "[mapping][json]") {
  const fs::path dir = fs::temp_directory_path() / "dfgc_json_test";
  fs::remove_all(dir);
  fs::create_directories(dir);

  std::ofstream(dir / "ok.json") << "{}";
  CHECK(load_error((dir / "ok.json").string()) == "");
  CHECK(load_error((dir / "missing.json").string()).ends_with("No such file or directory"));
  CHECK(load_error(dir.string()) ==
        "cannot read costs file '" + dir.string() + "': it is a directory");
  CHECK(load_error("/dev/zero") ==
        "cannot read costs file '/dev/zero': it is a character device, not a regular file");
  // A FIFO without a writer: refused at once, not waited on.
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);
  CHECK(load_error((dir / "fifo").string()).ends_with("it is a FIFO, not a regular file"));

  std::ofstream(dir / "big.json") << "{}";
  fs::resize_file(dir / "big.json", mapping::kMaxJsonFileBytes + 1);  // sparse
  CHECK(load_error((dir / "big.json").string())
            .ends_with("it is larger than 64 MiB, the most a costs file may hold"));
  fs::resize_file(dir / "big.json", mapping::kMaxJsonFileBytes);
  CHECK(load_error((dir / "big.json").string()) == "");
  fs::remove_all(dir);
}
