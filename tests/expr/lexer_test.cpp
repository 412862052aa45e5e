#include "expr/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace topdown::expr {
namespace {

std::vector<Token> tokenize(std::string_view text, const SourceLocation& where = {}) {
  Lexer lexer(text, where);
  std::vector<Token> tokens;
  for (Token token = lexer.next(); token.kind != TokenKind::End; token = lexer.next()) tokens.push_back(token);
  return tokens;
}

// The identifier names of `text`, with "<op>" for every other token.
std::vector<std::string> names(std::string_view text) {
  std::vector<std::string> result;
  for (const auto& token : tokenize(text)) {
    result.push_back(token.kind == TokenKind::Identifier ? token.name : "<" + std::string(token.text) + ">");
  }
  return result;
}

SourceLocation error_location(std::string_view text, const SourceLocation& where = {}) {
  try {
    tokenize(text, where);
  } catch (const ParseError& error) {
    return error.where();
  }
  ADD_FAILURE() << "no error for '" << text << "'";
  return {};
}

std::string error_message(std::string_view text) {
  try {
    tokenize(text);
  } catch (const ParseError& error) {
    return error.what();
  }
  return "no error";
}

TEST(Lexer, EventNamesWithModifiersAreOneIdentifier) {
  for (const std::string name :
       {"UOPS_EXECUTED.CORE:c1", "UOPS_EXECUTED.CORE:i1:c1", "BR_MISP_EXEC.ALL_BRANCHES:u0xE4",
        "CPU_CLK_UNHALTED.THREAD_P:SUP", "BR_INST_RETIRED.FAR_BRANCH:USER", "BR_MISP_RETIRED.ALL_BRANCHES:pp",
        "de_no_dispatch_per_slot.no_ops_from_frontend", "EXE_ACTIVITY.3_PORTS_UTIL", "duration_time", "tsc"}) {
    EXPECT_EQ(names(name), std::vector<std::string>{name});
  }
}

TEST(Lexer, PmuTermsAreOneIdentifier) {
  EXPECT_EQ(names("msr/tsc/"), std::vector<std::string>{"msr/tsc/"});
  EXPECT_EQ(names("cpu/event=0x1a0,umask=0x1,cmask=8/"),
            std::vector<std::string>{"cpu/event=0x1a0,umask=0x1,cmask=8/"});
  EXPECT_EQ(names("uncore_imc/cas_count_read/"), std::vector<std::string>{"uncore_imc/cas_count_read/"});
  EXPECT_EQ(names("amd_df/event=0x7,umask=0x38/"), std::vector<std::string>{"amd_df/event=0x7,umask=0x38/"});
  EXPECT_EQ(names("power/energy-pkg/"), std::vector<std::string>{"power/energy-pkg/"});
  EXPECT_EQ(names("cpu_atom/cycles/ + cpu_core/cycles/"),
            (std::vector<std::string>{"cpu_atom/cycles/", "<+>", "cpu_core/cycles/"}));
  EXPECT_EQ(names("msr/tsc/ / OneBillion"), (std::vector<std::string>{"msr/tsc/", "</>", "OneBillion"}));
}

TEST(Lexer, SlashIsDivisionUnlessAPmuTermFollowsAPmuName) {
  EXPECT_EQ(names("a/b"), (std::vector<std::string>{"a", "</>", "b"}));
  EXPECT_EQ(names("ls_not_halted_cyc/2"), (std::vector<std::string>{"ls_not_halted_cyc", "</>", "<2>"}));
  EXPECT_EQ(names("a/b/c"), (std::vector<std::string>{"a", "</>", "b", "</>", "c"}));
  EXPECT_EQ(names("cpu/2"), (std::vector<std::string>{"cpu", "</>", "<2>"}));
  EXPECT_EQ(names("cpu / 2 / x"), (std::vector<std::string>{"cpu", "</>", "<2>", "</>", "x"}));
  // Whitespace before the next slash means the slash divides.
  EXPECT_EQ(names("msr/x + y/2"), (std::vector<std::string>{"msr", "</>", "x", "<+>", "y", "</>", "<2>"}));
  EXPECT_EQ(names("cpu//2"), (std::vector<std::string>{"cpu", "</>", "</>", "<2>"}));
}

TEST(Lexer, PerfAtFormReadsAsSlashes) {
  EXPECT_EQ(names("msr@tsc@"), std::vector<std::string>{"msr/tsc/"});
  EXPECT_EQ(names("cpu@INST_RETIRED.ANY@"), std::vector<std::string>{"cpu/INST_RETIRED.ANY/"});
  EXPECT_EQ(names("cpu_core@X@"), std::vector<std::string>{"cpu_core/X/"});
  EXPECT_EQ(names(R"(cpu@UOPS_EXECUTED.CORE\,cmask\=1@)"), std::vector<std::string>{"cpu/UOPS_EXECUTED.CORE,cmask=1/"});
  EXPECT_EQ(names(R"(cstate_core@c6\-residency@ / msr@tsc@)"),
            (std::vector<std::string>{"cstate_core/c6-residency/", "</>", "msr/tsc/"}));
  EXPECT_EQ(names(R"(OCR.DEMAND_RFO.L3_MISS@offcore_rsp\=0x103b800002@)"),
            std::vector<std::string>{"OCR.DEMAND_RFO.L3_MISS/offcore_rsp=0x103b800002/"});
}

TEST(Lexer, BackslashEscapesJoinTheName) {
  const auto tokens = tokenize(R"(topdown\-fe\-bound + cycles\-t)");
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_EQ(tokens[0].name, "topdown-fe-bound");
  EXPECT_FALSE(tokens[0].plain);
  EXPECT_EQ(tokens[2].name, "cycles-t");
  // An escaped keyword is a name.
  const auto escaped = tokenize(R"(\if)");
  ASSERT_EQ(escaped.size(), 1u);
  EXPECT_EQ(escaped[0].kind, TokenKind::Identifier);
  EXPECT_EQ(escaped[0].name, "if");
}

TEST(Lexer, HashVariables) {
  EXPECT_EQ(names("#smt_on * #slots"), (std::vector<std::string>{"#smt_on", "<*>", "#slots"}));
  EXPECT_EQ(names("#SMT_on"), std::vector<std::string>{"#SMT_on"});
}

TEST(Lexer, IntervalSecondsIsTheOnlyHyphenatedName) {
  EXPECT_EQ(names("interval-s"), std::vector<std::string>{"interval-s"});
  EXPECT_EQ(names("1 / interval-s"), (std::vector<std::string>{"<1>", "</>", "interval-s"}));
  EXPECT_EQ(names("a-s"), (std::vector<std::string>{"a", "<->", "s"}));
  EXPECT_EQ(names("interval - s"), (std::vector<std::string>{"interval", "<->", "s"}));
  EXPECT_EQ(names("interval-seconds"), (std::vector<std::string>{"interval", "<->", "seconds"}));
  EXPECT_EQ(names("my_interval-s"), (std::vector<std::string>{"my_interval", "<->", "s"}));
}

TEST(Lexer, Numbers) {
  const std::vector<std::pair<std::string, double>> cases = {
      {"0.1", 0.1},       {"64", 64},  {"1e9", 1e9},  {"0x10", 16}, {"0XfF", 255},
      {"1.5e-3", 1.5e-3}, {".5", 0.5}, {"1E+2", 100}, {"10.", 10},  {"0", 0},
  };
  for (const auto& [text, value] : cases) {
    const auto tokens = tokenize(text);
    ASSERT_EQ(tokens.size(), 1u) << text;
    EXPECT_EQ(tokens[0].kind, TokenKind::Number) << text;
    EXPECT_DOUBLE_EQ(tokens[0].number, value) << text;
  }
}

TEST(Lexer, OperatorsAndKeywords) {
  std::vector<TokenKind> kinds;
  for (const auto& token : tokenize("( ) , + - * / % < <= > >= == != and && & or || | not if else")) {
    kinds.push_back(token.kind);
  }
  using enum TokenKind;
  EXPECT_EQ(kinds,
            (std::vector<TokenKind>{LeftParen, RightParen, Comma,   Plus,         Minus, Star,     Slash, Percent,
                                    Less,      LessEqual,  Greater, GreaterEqual, Equal, NotEqual, And,   And,
                                    And,       Or,         Or,      Or,           Not,   If,       Else}));
  // Keywords must be whole words.
  EXPECT_EQ(names("iffy orange android"), (std::vector<std::string>{"iffy", "orange", "android"}));
}

TEST(Lexer, ErrorsPointAtTheOffendingCharacter) {
  const auto single_equals = error_location("a = b");
  EXPECT_EQ(single_equals.line, 1);
  EXPECT_EQ(single_equals.column, 3);
  EXPECT_EQ(error_location("1 + $").column, 5);
  EXPECT_EQ(error_location("x + 2x").column, 5);
  EXPECT_EQ(error_location("a # b").column, 4);       // the name that should follow '#'
  EXPECT_EQ(error_location("cpu@event").column, 10);  // end of formula: the '@' is missing
  EXPECT_EQ(error_location("a\\").column, 2);
}

TEST(Lexer, ErrorMessagesSayWhatWasExpectedAndFound) {
  EXPECT_EQ(error_message("a = b"), "<input>:1:3: expected '==' to compare but found a single '='");
  EXPECT_EQ(error_message("a ! b"), "<input>:1:3: expected '!=' but found '!'; negate with 'not'");
  EXPECT_EQ(error_message("1 $"), "<input>:1:3: expected a number, name or operator but found '$'");
  EXPECT_EQ(error_message("2x"), "<input>:1:1: expected a number but found '2x'");
  EXPECT_EQ(error_message("1.5.2"), "<input>:1:1: expected a number but found '1.5.2'");
  EXPECT_EQ(error_message("1e999"), "<input>:1:1: number 1e999 is out of range");
  EXPECT_EQ(error_message("cpu@event"), "<input>:1:10: expected '@' to close 'cpu@' but found end of formula");
  EXPECT_EQ(error_message("#"), "<input>:1:2: expected a name after '#' but found end of formula");
  EXPECT_EQ(error_message("a\x01"), "<input>:1:2: expected a number, name or operator but found byte 0x01");
}

TEST(Lexer, LocateCountsFromWhere) {
  const SourceLocation where{"tree.model", 12, 5};
  const auto at = locate("a + b", 3, where);
  EXPECT_EQ(at.file, "tree.model");
  EXPECT_EQ(at.line, 12);
  EXPECT_EQ(at.column, 8);
  const auto next_line = locate("a +\n  b", 6, where);
  EXPECT_EQ(next_line.line, 13);
  EXPECT_EQ(next_line.column, 3);
  const auto unknown = locate("abc", 2, {});
  EXPECT_EQ(unknown.line, 1);
  EXPECT_EQ(unknown.column, 3);
  EXPECT_EQ(error_location("a +\n  b ?", where).line, 13);
  EXPECT_EQ(error_location("a +\n  b ?", where).column, 5);
}

}  // namespace
}  // namespace topdown::expr
