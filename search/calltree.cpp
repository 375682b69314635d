// The reader of potential.N.txt (docs/trace-format.md, "Potential tasks") into a CallTree.
#include <unistd.h>

#include <charconv>
#include <fstream>
#include <sstream>

#include "search/search.h"
#include "tracefmt/set_layout.h"

namespace tareador::search {

namespace {

// One line's fields, failing with file:line.
class Line {
 public:
  Line(const std::string& path, std::uint64_t number, const std::string& text)
      : path_(path), number_(number), text_(text) {}

  [[noreturn]] void fail(const std::string& message) const {
    throw trace::FormatError(path_, number_, message);
  }
  bool done() {
    skip_blanks();
    return at_ == text_.size();
  }
  std::string word(const char* what) {
    skip_blanks();
    if (at_ == text_.size()) fail(std::string("missing ") + what);
    std::size_t end = text_.find(' ', at_);
    if (end == std::string::npos) end = text_.size();
    std::string w = text_.substr(at_, end - at_);
    at_ = end;
    return w;
  }
  // A name as tr_text_field writes it: bare, or quoted with \" and \\ escaped.
  std::string name(const char* what) {
    skip_blanks();
    if (at_ == text_.size() || text_[at_] != '"') return word(what);
    std::string value;
    for (++at_; at_ < text_.size() && text_[at_] != '"'; ++at_) {
      if (text_[at_] == '\\' && at_ + 1 < text_.size()) ++at_;
      value += text_[at_];
    }
    if (at_ == text_.size()) fail(std::string(what) + ": the quoted name does not end");
    ++at_;
    return value;
  }
  std::uint64_t number(const char* what, int base = 10) { return parse(word(what), what, base); }
  std::uint64_t parse(const std::string& w, const char* what, int base) const {
    std::uint64_t value = 0;
    auto [stop, ec] = std::from_chars(w.data(), w.data() + w.size(), value, base);
    if (ec != std::errc() || stop != w.data() + w.size() || w.empty())
      fail(std::string(what) + " '" + trace::clipped(w) + "' is not a " +
           (base == 16 ? "hexadecimal " : "") + "number");
    return value;
  }
  void end(const char* record) {
    if (!done()) fail(std::string("text after the '") + record + "' record");
  }

 private:
  void skip_blanks() {
    while (at_ < text_.size() && text_[at_] == ' ') ++at_;
  }
  const std::string& path_;
  std::uint64_t number_;
  const std::string& text_;
  std::size_t at_ = 0;
};

class Reader {
 public:
  explicit Reader(const std::string& path) { tree_.path = path; }

  void record(Line& f) {
    std::string what = f.word("record");
    if (what == "stack") {
      tree_.stack_lo = f.number("stack low", 16);
      tree_.stack_hi = f.number("stack high", 16);
      if (tree_.stack_hi <= tree_.stack_lo) f.fail("the stack's high end is not above its low end");
      f.end("stack");
    } else if (what == "function") {
      function(f);
    } else if (what == "node") {
      node(f);
    } else if (what == "work") {
      Node& n = open_node(f, "work");
      n.items.push_back(static_cast<int>(n.segments.size()));
      n.segments.push_back(Segment{static_cast<double>(f.number("instructions")), {}, {}, {}});
      f.end("work");
    } else if (what == "read" || what == "write") {
      spans(f, what);
    } else if (what == "forget") {
      Node& n = open_node(f, "forget");
      n.items.push_back(static_cast<int>(n.segments.size()));
      n.segments.emplace_back();
      spans(f, what);
    } else if (what == "return") {
      Node& n = open_node(f, "return");
      if (f.number("node") != static_cast<std::uint64_t>(open_.back() + 1))
        f.fail("'return' of a node that is not the innermost open one");
      f.end("return");
      (void)n;
      close();
    } else if (what == "end") {
      if (!open_.empty()) f.fail("'end' with nodes still open");
      ended_ = true;
      f.end("end");
    } else {
      f.fail("unknown record '" + trace::clipped(what) + "'");
    }
    if (ended_ && what != "end") f.fail("records after 'end'");
  }

  CallTree finish() {
    if (tree_.nodes.empty())
      throw trace::FormatError(tree_.path, 0, "no node (main was never called)");
    tree_.truncated = !ended_;
    while (!open_.empty()) close();
    return std::move(tree_);
  }

 private:
  void function(Line& f) {
    std::uint64_t id = f.number("function id");
    if (id != tree_.functions.size())
      f.fail("function " + std::to_string(id) + " out of order (expected " +
             std::to_string(tree_.functions.size()) + ")");
    Function fn;
    std::string kind = f.word("function kind");
    if (kind != "call" && kind != "region") f.fail("function kind must be call or region");
    fn.region = kind == "region";
    fn.name = f.name("function name");
    fn.where = f.name("function location");
    if (fn.where == "-") fn.where.clear();
    f.end("function");
    tree_.functions.push_back(std::move(fn));
  }

  void node(Line& f) {
    std::uint64_t id = f.number("node id"), parent = f.number("parent");
    if (id != tree_.nodes.size() + 1)
      f.fail("node " + std::to_string(id) + " out of order (expected " +
             std::to_string(tree_.nodes.size() + 1) + ")");
    if (parent != (open_.empty() ? 0 : static_cast<std::uint64_t>(open_.back() + 1)))
      f.fail("node " + std::to_string(id) + ": parent " + std::to_string(parent) +
             " is not the innermost open node");
    if (open_.empty() && !tree_.nodes.empty()) f.fail("a second root node");
    if (tree_.stack_hi == 0) f.fail("a node before the 'stack' record");
    Node n;
    std::uint64_t function = f.number("function");
    if (function >= tree_.functions.size()) f.fail("unknown function " + std::to_string(function));
    n.function = static_cast<int>(function);
    n.parent = open_.empty() ? -1 : open_.back();
    n.frame_top = f.number("frame top", 16);
    f.end("node");
    int index = static_cast<int>(tree_.nodes.size());
    if (n.parent >= 0) {
      Node& p = tree_.nodes[static_cast<std::size_t>(n.parent)];
      p.children.push_back(index);
      p.items.push_back(-index - 1);
    }
    tree_.nodes.push_back(std::move(n));
    open_.push_back(index);
  }

  void spans(Line& f, const std::string& what) {
    Node& n = open_node(f, what.c_str());
    if (n.items.empty() || n.items.back() < 0) f.fail("'" + what + "' outside a 'work' segment");
    Segment& s = n.segments.back();
    Spans& set = what == "read" ? s.read : what == "write" ? s.written : s.forgotten;
    while (!f.done()) {
      std::string w = f.word("interval");
      std::size_t plus = w.find('+');
      if (plus == std::string::npos)
        f.fail("interval '" + trace::clipped(w) + "' is not LO+LENGTH");
      std::uint64_t lo = f.parse(w.substr(0, plus), "interval start", 16);
      std::uint64_t length = f.parse(w.substr(plus + 1), "interval length", 16);
      if (length == 0 || lo + length < lo)
        f.fail("interval '" + trace::clipped(w) + "' is empty or wraps");
      if (!set.empty() && lo <= set.back().second)
        f.fail("intervals must be sorted and apart: " + trace::clipped(w));
      set.emplace_back(lo, lo + length);
    }
  }

  Node& open_node(Line& f, const char* record) {
    if (open_.empty()) f.fail(std::string("'") + record + "' with no node open");
    return tree_.nodes[static_cast<std::size_t>(open_.back())];
  }

  void close() {
    Node& n = tree_.nodes[static_cast<std::size_t>(open_.back())];
    for (const Segment& s : n.segments) n.total += s.instructions;
    for (int c : n.children) n.total += tree_.nodes[static_cast<std::size_t>(c)].total;
    open_.pop_back();
  }

  CallTree tree_;
  std::vector<int> open_;
  bool ended_ = false;
};

}  // namespace

CallTree read_call_tree(const std::string& path) {
  trace::InputFile input = trace::open_input_file(path);
  ::close(input.fd);
  std::ifstream in(path);
  if (!in) throw trace::FormatError(path, 0, "cannot open");
  Reader reader(path);
  std::string text;
  std::uint64_t number = 0;
  while (std::getline(in, text)) {
    ++number;
    if (number == 1) {
      if (text.rfind("# tareador potential v1", 0) != 0)
        throw trace::FormatError(path, 1,
                                 "not a potential-tasks file (no '# tareador potential v1')");
      continue;
    }
    if (text.empty() || text[0] == '#') continue;
    Line line(path, number, text);
    reader.record(line);
  }
  if (number == 0) throw trace::FormatError(path, 0, "empty file");
  return reader.finish();
}

CallTree read_trace_set(const std::string& dir, int rank) {
  trace::SetManifest manifest = trace::read_set_manifest(dir);
  char name[64];
  std::snprintf(name, sizeof name, TR_SET_POTENTIAL, rank);
  CallTree tree = read_call_tree(dir + "/" + name);
  tree.name = manifest.name;
  if (manifest.mips > 0) tree.mips = manifest.mips;
  tree.notes = trace::rank_notes(dir, rank);
  return tree;
}

}  // namespace tareador::search
