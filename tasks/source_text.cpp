// The light reading of a C source file behind the annotated source (source_text.h).
#include "tasks/source_text.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace tareador::tasks {

namespace {

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The code of each line: comments, preprocessor lines (with their continuations) and what is
// inside string and character literals become blanks, so that braces and semicolons are code.
std::vector<std::string> blank_non_code(const std::vector<std::string>& lines) {
  enum class State { Code, Block, String, Char };
  State state = State::Code;
  bool preprocessor_continues = false;
  std::vector<std::string> code;
  for (const std::string& line : lines) {
    std::string out(line.size(), ' ');
    std::size_t first = line.find_first_not_of(" \t");
    bool preprocessor = preprocessor_continues ||
                        (state == State::Code && first != std::string::npos && line[first] == '#');
    preprocessor_continues = preprocessor && !line.empty() && line.back() == '\\';
    for (std::size_t i = 0; i < line.size() && !preprocessor; ++i) {
      char c = line[i], next = i + 1 < line.size() ? line[i + 1] : '\0';
      if (state == State::Block) {
        if (c == '*' && next == '/') state = State::Code, ++i;
      } else if (state == State::String || state == State::Char) {
        if (c == '\\') ++i;
        else if (c == (state == State::String ? '"' : '\'')) out[i] = c, state = State::Code;
      } else if (c == '/' && next == '/') {
        break;
      } else if (c == '/' && next == '*') {
        state = State::Block, ++i;
      } else {
        out[i] = c;
        if (c == '"') state = State::String;
        if (c == '\'') state = State::Char;
      }
    }
    if (state == State::String || state == State::Char) state = State::Code;  // unterminated
    code.push_back(std::move(out));
  }
  return code;
}

// The last non-blank character of `s`, or '\0'.
char last_char(const std::string& s) {
  std::size_t at = s.find_last_not_of(" \t");
  return at == std::string::npos ? '\0' : s[at];
}

// Tokens: identifiers and numbers whole, anything else one character each; blanks dropped.
std::vector<std::string> tokens(const std::string& code) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < code.size();) {
    if (std::isspace(static_cast<unsigned char>(code[i]))) {
      ++i;
    } else if (is_identifier_char(code[i])) {
      std::size_t j = i;
      while (j < code.size() && is_identifier_char(code[j])) ++j;
      out.push_back(code.substr(i, j - i));
      i = j;
    } else {
      out.push_back(std::string(1, code[i++]));
    }
  }
  return out;
}

// `s` cut at the separators outside parentheses, brackets and braces (and angle brackets with
// `angles`: a parameter's template arguments, `std::map<int, double>&`).
std::vector<std::string> split_top_level(const std::string& s, char separator,
                                         bool angles = false) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : s) {
    if (c == '(' || c == '[' || c == '{' || (angles && c == '<')) ++depth;
    if (c == ')' || c == ']' || c == '}' || (angles && c == '>')) --depth;
    if (c == separator && depth == 0) parts.emplace_back();
    else parts.back() += c;
  }
  return parts;
}

const std::set<std::string>& qualifiers() {
  static const std::set<std::string> words = {"const",    "static",   "volatile",  "extern",
                                              "register", "restrict", "struct",    "enum",
                                              "union",    "inline",   "__restrict"};
  return words;
}

const std::set<std::string>& statement_keywords() {
  static const std::set<std::string> words = {"return",   "if",     "else",    "while",  "for",
                                              "do",       "switch", "case",    "goto",   "break",
                                              "continue", "sizeof", "typedef", "default"};
  return words;
}

// One declarator (`*name[4] = ...`, `&name`, `(&name)[4]`): its stars, name, whether it is a
// reference and an array; false if the tokens are not one.
bool declarator(const std::vector<std::string>& t, std::size_t from, Declaration& d) {
  std::size_t i = from;
  for (; i < t.size() && (t[i] == "*" || t[i] == "&"); ++i) {
    if (t[i] == "*") ++d.stars;
    else d.reference = true;
  }
  // A reference to an array: `(&name)[N]`.
  bool parenthesised =
      d.stars == 0 && !d.reference && i + 1 < t.size() && t[i] == "(" && t[i + 1] == "&";
  if (parenthesised) {
    i += 2;
    d.reference = true;
  }
  if (i >= t.size() || !is_identifier_start(t[i][0])) return false;
  d.name = t[i++];
  if (parenthesised && (i + 1 >= t.size() || t[i++] != ")" || t[i] != "[")) return false;
  bool follows = i == t.size() || t[i] == "[" || t[i] == "=";
  for (int depth = 0; i < t.size(); ++i) {
    if (t[i] == "[" && depth++ == 0) ++d.dimensions;
    if (t[i] == "]") --depth;
  }
  return follows;
}

// The tokens with C++ names made one: `std :: vector < double >` -> `std::vector<double>` (a
// template's arguments after a name, up to their closing `>`, when it comes).
std::vector<std::string> join_names(const std::vector<std::string>& t) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    bool scope = t[i] == ":" && i + 1 < t.size() && t[i + 1] == ":";
    if (scope || (!out.empty() && out.back().size() >= 2 &&
                  out.back().compare(out.back().size() - 2, 2, "::") == 0)) {
      if (out.empty()) out.emplace_back();
      out.back() += scope ? "::" : t[i];
      i += scope ? 1 : 0;
      continue;
    }
    if (t[i] == "<" && !out.empty() && is_identifier_start(out.back()[0])) {
      std::string arguments;
      std::size_t j = i;
      for (int depth = 0; j < t.size(); ++j) {
        arguments += t[j];
        if (t[j] == "<") ++depth;
        if (t[j] == ">" && --depth == 0) break;
      }
      if (j < t.size()) {
        out.back() += arguments;
        i = j;
        continue;
      }
    }
    out.push_back(t[i]);
  }
  return out;
}

}  // namespace

int basic_type_size(const std::string& type) {
  std::vector<std::string> words = tokens(type);
  auto has = [&](const char* w) { return std::find(words.begin(), words.end(), w) != words.end(); };
  if (has("char") || has("_Bool") || has("bool")) return 1;
  if (has("short")) return 2;
  if (has("double")) return has("long") ? 16 : 8;
  if (has("long")) return 8;
  if (has("float") || has("int") || has("unsigned") || has("signed")) return 4;
  if (words.size() != 1) return 0;
  const std::string& w = words.front();
  if (w == "size_t" || w == "ssize_t" || w == "ptrdiff_t" || w == "intptr_t" || w == "uintptr_t")
    return 8;
  for (const char* prefix : {"int", "uint"}) {
    std::string p = prefix;
    if (w.size() > p.size() + 2 && w.compare(0, p.size(), p) == 0 &&
        w.compare(w.size() - 2, 2, "_t") == 0) {
      std::string bits = w.substr(p.size(), w.size() - p.size() - 2);
      if (bits == "8" || bits == "16" || bits == "32" || bits == "64") return std::stoi(bits) / 8;
    }
  }
  return 0;
}

std::vector<Declaration> parse_declaration(const std::string& statement, int line, bool parameter) {
  std::vector<std::string> parts =
      parameter ? std::vector<std::string>{statement} : split_top_level(statement, ',');
  std::vector<std::string> first = join_names(tokens(split_top_level(parts.front(), '=').front()));
  // The type words come first; the declarator starts at the first '*' or at the last
  // identifier before any '['.
  std::size_t start = 0;
  while (start < first.size() && is_identifier_start(first[start][0]) &&
         !(start + 1 < first.size() && first[start + 1] == "[") && start + 1 < first.size())
    ++start;
  std::string base;
  for (std::size_t i = 0; i < start; ++i) {
    if (statement_keywords().count(first[i])) return {};
    if (qualifiers().count(first[i])) continue;
    base += (base.empty() ? "" : " ") + first[i];
  }
  Declaration d;
  if (base.empty() || !declarator(first, start, d)) return {};
  std::vector<Declaration> out;
  d.base_type = base;
  d.line = line;
  out.push_back(d);
  for (std::size_t p = 1; p < parts.size(); ++p) {
    Declaration more;
    if (!declarator(join_names(tokens(split_top_level(parts[p], '=').front())), 0, more))
      return out;
    more.base_type = base;
    more.line = line;
    out.push_back(more);
  }
  return out;
}

std::vector<std::string> called_names(const std::string& code) {
  std::vector<std::string> out;
  std::vector<std::string> all = tokens(code);
  for (std::size_t i = 0; i + 1 < all.size(); ++i)
    if (is_identifier_start(all[i][0]) && all[i + 1] == "(" &&
        !statement_keywords().count(all[i]) &&
        std::find(out.begin(), out.end(), all[i]) == out.end())
      out.push_back(all[i]);
  return out;
}

std::vector<std::string> identifiers(const std::string& code) {
  std::vector<std::string> out;
  std::vector<std::string> all = tokens(code);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const std::string& t = all[i];
    // A member's name (`all.sum`, `p->max`) is not a variable.
    bool member =
        (i >= 1 && all[i - 1] == ".") || (i >= 2 && all[i - 1] == ">" && all[i - 2] == "-");
    if (is_identifier_start(t[0]) && !member && std::find(out.begin(), out.end(), t) == out.end())
      out.push_back(t);
  }
  return out;
}

SourceText::SourceText(std::vector<std::string> lines, bool final_newline)
    : lines_(std::move(lines)), code_(blank_non_code(lines_)), final_newline_(final_newline) {
  int depth = 0;
  for (const std::string& code : code_) {
    before_.push_back(depth);
    int least = depth;
    for (char c : code) {
      if (c == '{') ++depth;
      if (c == '}') least = std::min(least, --depth);
    }
    min_.push_back(least);
  }
  before_.push_back(depth);
  read_conditionals();
}

void SourceText::read_conditionals() {
  std::vector<int> open;   // the branches holding the current point, innermost last
  bool continued = false;  // the line continues a preprocessor line
  for (int n = 1; n <= size(); ++n) {
    branch_before_.push_back(open.empty() ? 0 : open.back());
    directives_.emplace_back();
    const std::string& l = line(n);
    std::size_t hash = l.find_first_not_of(" \t");
    bool directive = !continued && hash != std::string::npos && l[hash] == '#' &&
                     code(n).find_first_not_of(' ') == std::string::npos;
    continued = (directive || continued) && !l.empty() && l.back() == '\\';
    if (!directive) continue;
    std::vector<std::string> words = tokens(l.substr(hash + 1));
    const std::string word = words.empty() ? "" : words.front();
    directives_.back() = word;
    if (word == "if" || word == "ifdef" || word == "ifndef") {
      branches_.push_back(Branch{open.empty() ? 0 : open.back(), n, 0});
      open.push_back(static_cast<int>(branches_.size()));
    } else if (!open.empty() &&
               (word == "elif" || word == "else" || word == "elifdef" || word == "elifndef")) {
      Branch next = branches_[static_cast<std::size_t>(open.back() - 1)];  // same conditional
      branches_.push_back(next);
      open.back() = static_cast<int>(branches_.size());
    } else if (!open.empty() && word == "endif") {
      int if_line = branches_[static_cast<std::size_t>(open.back() - 1)].if_line;
      for (Branch& b : branches_)  // (every branch of this conditional)
        if (b.if_line == if_line) b.endif_line = n;
      open.pop_back();
    }
  }
  branch_before_.push_back(open.empty() ? 0 : open.back());
}

std::optional<std::pair<int, int>> SourceText::same_branch(int from, int to) const {
  auto branch = [&](int n) { return branch_before_[index(n)]; };
  auto info = [&](int b) { return branches_[static_cast<std::size_t>(b - 1)]; };
  std::set<int> holding_from;
  for (int b = branch(from); b != 0; b = info(b).parent) holding_from.insert(b);
  int common = branch(to);
  while (common != 0 && !holding_from.count(common)) common = info(common).parent;
  while (branch(from) != common) {
    if (info(branch(from)).endif_line == 0) return std::nullopt;
    from = info(branch(from)).endif_line + 1;
  }
  while (branch(to) != common) to = info(branch(to)).if_line;
  if (from > to) return std::nullopt;
  return std::pair{from, to};
}

int SourceText::outside_conditionals(int n) const {
  int outermost = branch_before_[index(n)];
  if (outermost == 0) return n;
  while (branches_[static_cast<std::size_t>(outermost - 1)].parent != 0)
    outermost = branches_[static_cast<std::size_t>(outermost - 1)].parent;
  return branches_[static_cast<std::size_t>(outermost - 1)].endif_line;
}

std::vector<std::string> SourceText::openmp_words(int n) const {
  std::vector<std::string> words = tokens(line(n));
  if (words.size() < 3 || words[0] != "#" || words[1] != "pragma" || words[2] != "omp") return {};
  std::vector<std::string> out;
  for (std::size_t i = 3; i < words.size(); ++i) {
    if (words[i] == "(") {
      if (i > 3 && is_identifier_start(words[i - 1][0])) out.pop_back();  // a clause's name
      break;
    }
    if (is_identifier_start(words[i][0])) out.push_back(words[i]);
  }
  return out;
}

SourceText SourceText::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read the source file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return SourceText(std::move(lines), text.empty() || text.back() == '\n');
}

std::string SourceText::indent(int n) const {
  const std::string& l = line(n);
  return l.substr(0, std::min(l.size(), l.find_first_not_of(" \t")));
}

int SourceText::function_body(int n) const {
  for (int l = std::min(n, size()); l >= 1; --l)
    if (depth_before(l) == 0) return code(l).find('{') != std::string::npos ? l : 0;
  return 0;
}

std::optional<SourceText::Header> SourceText::header(int body_line) const {
  Header h;
  int first = std::max(1, body_line - 8);
  for (int l = first; l <= body_line; ++l) h.text += code(l) + " ";
  std::size_t brace = h.text.find('{', h.text.size() - code(body_line).size() - 1);
  h.close = h.text.rfind(')', brace);
  // (Not a function's: `void f(int); struct S {`, `int a[] = {`.)
  if (h.close == std::string::npos || h.text.find_first_of(";}=", h.close) < brace)
    return std::nullopt;
  int depth = 0;
  for (h.open = h.close;; --h.open) {
    if (h.text[h.open] == ')') ++depth;
    if (h.text[h.open] == '(' && --depth == 0) return h;
    if (h.open == 0) return std::nullopt;
  }
}

std::vector<Declaration> SourceText::parameters(int body_line) const {
  std::optional<Header> h = header(body_line);
  if (!h) return {};
  std::vector<Declaration> out;
  for (const std::string& piece :
       split_top_level(h->text.substr(h->open + 1, h->close - h->open - 1), ',', true))
    for (Declaration& d : parse_declaration(piece, body_line, true)) out.push_back(d);
  return out;
}

std::string SourceText::function_name(int body_line) const {
  std::optional<Header> h = header(body_line);
  if (!h) return "";
  std::vector<std::string> before = tokens(h->text.substr(0, h->open));
  if (before.empty() || !is_identifier_start(before.back()[0]) ||
      statement_keywords().count(before.back()))
    return "";
  return before.back();
}

std::vector<Declaration> SourceText::declarations(int from, int to) const {
  std::vector<Declaration> out;
  std::string statement;
  int start = 0, parens = 0;
  for (int l = std::max(1, from); l <= std::min(to, size()); ++l)
    for (char c : code(l)) {
      if (c == '(') ++parens;
      if (c == ')') --parens;
      bool ends = parens == 0 && (c == ';' || c == '{' || c == '}');
      if (!ends) {
        if (statement.empty() && !std::isspace(static_cast<unsigned char>(c))) start = l;
        if (!statement.empty() || !std::isspace(static_cast<unsigned char>(c))) statement += c;
        continue;
      }
      if (c == ';')
        for (Declaration& d : parse_declaration(statement, start)) out.push_back(d);
      statement.clear();
    }
  return out;
}

std::optional<Declaration> SourceText::global_declaration(const std::string& name) const {
  for (const Declaration& d : declarations(1, size()))
    if (d.name == name && depth_before(d.line) == 0) return d;
  return std::nullopt;
}

bool SourceText::statement_ends_before(int n) const {
  for (int l = n - 1; l >= 1; --l) {
    char c = last_char(code(l));
    if (c != '\0') return c == ';' || c == '{' || c == '}';
  }
  return true;
}

bool SourceText::statement_ends_at(int n) const {
  char c = last_char(code(n));
  if (c != ';' && c != '}') return false;
  for (int l = n + 1; l <= size(); ++l) {
    std::vector<std::string> t = tokens(code(l));
    if (!t.empty()) return t.front() != "else" && !(c == '}' && t.front() == "while");
  }
  return true;
}

std::pair<int, int> SourceText::statement_range(int from, int to, int depth) const {
  for (int l = from; l <= to; ++l) depth = std::min(depth, depth_min(l));
  int first = from, last = to;
  auto widen = [&] {
    while (first > 1 && depth_before(first) > depth) --first;
    while (last < size() && depth_after(last) > depth) ++last;
  };
  widen();
  while (first > 1 && !statement_ends_before(first)) {
    --first;
    widen();
  }
  while (last < size() && !statement_ends_at(last)) {
    ++last;
    widen();
  }
  return {first, last};
}

}  // namespace tareador::tasks
