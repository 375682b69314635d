// source_text.h — a C source file as the annotated-source generator sees it (internal to
// tasks/): its lines, the code of each line without comments and literal contents, the brace
// depth around each line, and the declarations a light reading of the statements finds. Not a
// C parser: enough to place pragmas between whole statements and to name variables.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tareador::tasks {

// `TYPE NAME`, `TYPE *NAME = ...`, `TYPE NAME[N]` as one statement or parameter declares it;
// in C++ also `TYPE& NAME`, `TYPE (&NAME)[N]`, TYPE a qualified name or a template's
// (`std::vector<double>`).
struct Declaration {
  std::string name;
  std::string base_type;   // the last type word: "double", "Tile", "int"
  int stars = 0;           // pointer levels
  int dimensions = 0;      // of an array: how many [...] follow the name
  bool reference = false;  // a C++ reference (`T& v`, `double (&v)[N]`)
  int line = 0;            // where it is declared
};

class SourceText {
 public:
  explicit SourceText(std::vector<std::string> lines, bool final_newline = true);
  // Reads `path`; throws std::runtime_error naming it when it cannot.
  static SourceText read(const std::string& path);

  int size() const { return static_cast<int>(lines_.size()); }
  const std::vector<std::string>& lines() const { return lines_; }
  bool final_newline() const { return final_newline_; }
  const std::string& line(int n) const { return lines_[index(n)]; }
  // Line n's code: comments, preprocessor lines and the insides of literals blanked out.
  const std::string& code(int n) const { return code_[index(n)]; }
  std::string indent(int n) const;  // its leading blanks
  // Brace depth at the start and end of line n, and the least depth reached within it.
  int depth_before(int n) const { return before_[index(n)]; }
  int depth_after(int n) const { return depth_before(n + 1); }
  int depth_min(int n) const { return min_[index(n)]; }

  // The line of the brace that opens the function holding line n (depth 0 to 1), or 0.
  int function_body(int n) const;
  // The parameters of that function, from its header before the brace.
  std::vector<Declaration> parameters(int body_line) const;
  // The declarations of the statements in lines [from, to] (whole statements only).
  std::vector<Declaration> declarations(int from, int to) const;
  // A declaration of `name` at file scope (depth 0), if the file has one.
  std::optional<Declaration> global_declaration(const std::string& name) const;
  // The smallest range of whole statements [first, last] holding lines [from, to] at one depth,
  // at most `depth` (the statements that hold them in blocks deeper than that are whole).
  std::pair<int, int> statement_range(int from, int to, int depth) const;
  // The name of the function whose body the brace at `body_line` opens ("" if none is seen).
  std::string function_name(int body_line) const;

  // Of an OpenMP pragma (`#pragma omp parallel for if(n > 1)`) at line n, its words before the
  // first clause with arguments ("parallel", "for"); none for any other line.
  std::vector<std::string> openmp_words(int n) const;
  // Points between lines (`before` line n) in one branch of the preprocessor conditionals
  // (`#if`, `#ifdef` .. `#elif`, `#else` .. `#endif`): `from` moved forward past the `#endif`
  // and `to` back before the `#if` of each conditional that holds one of them and not the
  // other, so that a block opened at `from` and closed at `to` is in every build or in none.
  // Nothing when they would cross.
  std::optional<std::pair<int, int>> same_branch(int from, int to) const;
  // The word of the preprocessor directive at line n ("include", "ifdef"), "" on other lines.
  const std::string& directive(int n) const { return directives_[index(n)]; }
  // Line n outside every preprocessor conditional; inside one, the `#endif` of the outermost
  // conditional holding it (0 when it has none): where code after it is in every build.
  int outside_conditionals(int n) const;

 private:
  std::size_t index(int n) const { return static_cast<std::size_t>(n - 1); }
  bool statement_ends_before(int n) const;  // line n-1 ends a statement (or there is none)
  bool statement_ends_at(int n) const;

  void read_conditionals();
  // The code before the brace at `body_line` (a few lines of it) and where the parentheses of
  // the function's parameters are in it.
  struct Header {
    std::string text;
    std::size_t open = 0, close = 0;
  };
  std::optional<Header> header(int body_line) const;

  std::vector<std::string> lines_, code_;
  std::vector<int> before_, min_;  // size()+1 entries in before_
  bool final_newline_;
  // The conditionals' branches: the innermost one holding the point before each line (0: none;
  // size()+1 entries), and each one's parent branch and its conditional's `#if` and `#endif`
  // lines (0: no `#endif`), indexed by branch - 1.
  struct Branch {
    int parent = 0, if_line = 0, endif_line = 0;
  };
  std::vector<int> branch_before_;
  std::vector<std::string> directives_;
  std::vector<Branch> branches_;
};

// One statement's declarations (`double *a = x, *b;` -> a and b), none if it declares nothing;
// with `parameter`, one parameter's (its commas are a template's: `std::map<int, T>& m`).
std::vector<Declaration> parse_declaration(const std::string& statement, int line,
                                           bool parameter = false);
// The identifiers of a piece of code, in order, once each; members' names (`s.x`, `p->x`) are
// not among them.
std::vector<std::string> identifiers(const std::string& code);
// The names of the functions a piece of code calls (`f(x)`, `s.f(x)`), once each; not `if`,
// `while`, `sizeof` and the like.
std::vector<std::string> called_names(const std::string& code);
// The size of a basic C type ("double" 8, "int" 4, "size_t" 8), 0 when not a basic type.
int basic_type_size(const std::string& type);

}  // namespace tareador::tasks
