// Each broken model file must fail with "file:line:col: " pointing at the
// mistake and a message that says what is wrong.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../support/temp_tree.h"
#include "model/model.h"

namespace topdown::model {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using topdown::testing::TempTree;

// Lines 1-5 of every case below; the case's own text starts at line 6.
std::string with_header(const std::string& rest, const std::string& cpus = "AMD 0x1A") {
  return "[model]\nname = bad\ntitle = Bad\ncpus = " + cpus + "\nevent_table = bad\n" + rest;
}

struct BadFile {
  const char* label;
  std::string text;
  int line;
  int column;
  const char* phrase;
};

void PrintTo(const BadFile& bad, std::ostream* out) { *out << bad.label; }

std::string deep_chain() {
  std::string text = "[node N1]\nformula = 1\n";  // lines 6-7
  for (int level = 2; level <= 7; ++level) {      // three lines each, from line 8
    text += "[node N" + std::to_string(level) + "]\nparent = N" + std::to_string(level - 1) + "\nformula = 1\n";
  }
  return text;
}

const BadFile kBadFiles[] = {
    {"KeyOutsideSection", "name = x\n[model]\n", 1, 1, "key outside any section"},
    {"NoModelSection", "[node A]\nformula = 1\n", 1, 1, "no [model] section"},
    {"ModelWithoutCpus", "[model]\nname = x\ntitle = X\nevent_table = x\n", 1, 1, "[model] has no 'cpus'"},
    {"ModelWithName", "[model zen]\n", 1, 8, "section [model] takes no name"},
    {"SecondModel", with_header("[model]\n"), 6, 1, "second [model] section (first at line 1)"},
    {"UnknownSection", with_header("[nodes X]\nformula = 1\n"), 6, 2, "unknown section [nodes X]"},
    {"HeaderWithoutBracket", with_header("[node A\n"), 6, 8, "no closing ']'"},
    {"TextAfterHeader", with_header("[node A] # first\n"), 6, 10, "unexpected text after ']'"},
    {"NodeWithoutName", with_header("[node]\nformula = 1\n"), 6, 2, "[node] needs a name"},
    {"UnknownKey", with_header("[node A]\nformula = 1\nformla = 2\n"), 8, 1,
     "unknown key 'formla' in [node A]; allowed keys: vendor_name, parent"},
    {"UnknownInfoKey", with_header("[info I]\nformula = 1\nparent = A\n"), 8, 1, "unknown key 'parent' in [info I]"},
    {"DuplicateKey", with_header("[node A]\nformula = 1\nformula = 2\n"), 8, 1,
     "duplicate key 'formula' (first given at line 7)"},
    {"MissingEquals", with_header("[node A]\nformula 1\n"), 7, 1, "missing '='"},
    {"MissingKey", with_header("[node A]\n= 1\n"), 7, 1, "missing key before '='"},
    {"EmptyValue", with_header("[node A]\nformula =\n"), 7, 1, "key 'formula' has no value"},
    {"ContinuationWithoutKey", with_header("[node A]\n  formula = 1\n"), 7, 3, "indented line continues no key"},
    {"MissingFormula", with_header("[node A]\ndescription = x\n"), 6, 1, "node 'A' has no formula"},
    {"MissingInfoFormula", with_header("[info I]\nunit = x\n"), 6, 1, "info metric 'I' has no formula"},
    {"BadNodeName", with_header("[node 1A]\nformula = 1\n"), 6, 7, "bad node name '1A'"},
    {"DuplicateNode", with_header("[node A]\nformula = 1\n[node A]\nformula = 2\n"), 8, 7,
     "duplicate node name 'A' (first at line 6)"},
    {"NodeNamedLikeConstant", with_header("[constants]\nA = 1\n[node A]\nformula = 2\n"), 8, 7,
     "'A' is already the name of a constant (line 7)"},
    {"RunVariableAsName", with_header("[constants]\nthis = 1\n"), 7, 1, "'this' is a run variable"},
    {"SharedVendorName",
     with_header("[node A]\nvendor_name = x\nformula = 1\n[node B]\nvendor_name = x\nformula = 2\n"), 10, 15,
     "vendor_name 'x' of 'B' is also used by 'A'"},
    {"UnknownParent", with_header("[node A]\nparent = Nope\nformula = 1\n"), 7, 10, "unknown parent 'Nope' of 'A'"},
    {"InfoAsParent", with_header("[info I]\nformula = 1\n[node A]\nparent = I\nformula = 2\n"), 9, 10,
     "parent 'I' is an info metric"},
    {"ParentLoop", with_header("[node A]\nparent = B\nformula = 1\n[node B]\nparent = A\nformula = 2\n"), 7, 10,
     "parents form a loop: A -> B -> A"},
    {"TooDeep", with_header(deep_chain()), 24, 10, "'N7' would be below level 6"},
    {"FormulaCycle", with_header("[node A]\nformula = B + 1\n[node B]\nformula = 2 * A\n"), 7, 11,
     "cycle among formulas: A -> B -> A"},
    {"SelfReference", with_header("[node A]\nformula = 2 * A\n"), 7, 15, "cycle among formulas: A -> A"},
    {"CycleThroughIdentity", with_header("[node A]\nformula = x\nidentity = 1 -\n   B\n[node B]\nformula = A / 2\n"), 9,
     4, "cycle among formulas: A -> B -> A"},
    {"CycleThroughFallback", with_header("[node A]\nformula = x\nfallback = y + B\n[node B]\nformula = A / 2\n"), 8, 16,
     "cycle among formulas: A -> B -> A"},
    {"OverInFallback",
     with_header("[node A]\nformula = 1\nfallback = over(B)\n[node B]\nformula = 1\nthreshold = this > 1\n"), 8, 12,
     "over(...) may only be used in a threshold"},
    {"DefinitionUsesLaterOne", with_header("[define]\nA = 2 * B\nB = 3\n"), 7, 9,
     "definition 'A' uses 'B', defined later (line 8)"},
    {"DefinitionUsesItself", with_header("[define]\nA = A + 1\n"), 7, 5, "definition 'A' uses itself"},
    {"CycleThroughDefinition", with_header("[define]\nA = N * 2\n[node N]\nformula = A + 1\n"), 9, 11,
     "cycle among formulas: N -> N"},
    {"OverInFormula", with_header("[node A]\nformula = over(B)\n[node B]\nformula = 1\nthreshold = this > 1\n"), 7, 11,
     "over(...) may only be used in a threshold"},
    {"OverUnknownNode", with_header("[node A]\nformula = 1\nthreshold = over(Z)\n"), 8, 18,
     "over(Z) in the threshold of 'A': no node has that name"},
    {"OverNodeWithoutThreshold", with_header("[node A]\nformula = 1\nthreshold = over(B)\n[node B]\nformula = 2\n"), 8,
     18, "over(B) in the threshold of 'A': that node has no threshold"},
    {"VerdictCircle",
     with_header("[node A]\nformula = 1\nthreshold = over(B)\n[node B]\nformula = 2\nthreshold = over(A)\n"), 11, 13,
     "thresholds wait on each other in a circle: A -> B -> A"},
    {"VerdictCircleThroughParent",
     with_header("[node P]\nformula = 1\nthreshold = over(C)\n[node C]\nparent = P\nformula = 1\n"
                 "threshold = parent_over\n"),
     12, 13, "thresholds wait on each other in a circle: P -> C -> P"},
    {"BadCounterCount", with_header("counters = 0\n"), 6, 12, "'counters' is not a counter count: '0'"},
    {"BadConstant", with_header("[constants]\nWidth = eight\n"), 7, 9, "constant 'Width' is not a number: 'eight'"},
    {"ConstantWithUnit", with_header("[constants]\nWidth = 8 slots\n"), 7, 9, "constant 'Width' is not a number"},
    {"BadRetireLatency", with_header("[retire_latencies]\nMEM.LOADS = soon\n"), 7, 13,
     "retire latency of 'MEM.LOADS' is not a number: 'soon'; write a decimal number such as 8 or 0.5, or measured"},
    {"RetireLatencyTwice", with_header("[retire_latencies]\nMEM.LOADS = 3\nMEM_LOADS = measured\n"), 8, 1,
     "retire latency of 'MEM_LOADS' given twice"},
    {"UnlistedRetireLatency", with_header("[node A]\nformula = x * Retire_Latency_X_Y\n"), 7, 15,
     "'Retire_Latency_X_Y' is the retire latency of an event [retire_latencies] does not list"},
    {"RetireLatencyAsConstant", with_header("[constants]\nRetire_Latency_X = 1\n"), 7, 1,
     "'Retire_Latency_X' is a run variable"},
    {"UnknownVendor", with_header("", "AMD 0x1A, Via 6"), 4, 18,
     "bad cpus entry 'Via 6': unknown vendor 'Via' (AMD, Intel or Arm)"},
    {"BadFamily", with_header("", "AMD 0x1A, AMD zz"), 4, 18, "family 'zz' is not a number"},
    {"BadModelRange", with_header("", "AMD 0x19 0x20-0x10"), 4, 8, "model range '0x20-0x10' is not MIN-MAX"},
    {"CpuWithoutFamily", with_header("", "AMD"), 4, 8, "expected 2 to 4 words"},
    {"BadSteppingRange", with_header("", "Intel 6 0x55 9-5"), 4, 8, "stepping range '9-5' is not MIN-MAX"},
    {"ClockOfTwoEvents", with_header("clock = cycles, instructions\n"), 6, 9,
     "clock 'cycles, instructions' is not one event"},
    {"CpuWithFiveWords", with_header("", "Intel 6 0x55 5 6"), 4, 8, "expected 2 to 4 words"},
    {"EmptyListItem", with_header("[node A]\nformula = 1\ngroups = X,,Y\n"), 8, 12,
     "empty item in the list of 'groups'"},
};

class BadModel : public ::testing::TestWithParam<BadFile> {};

TEST_P(BadModel, PointsAtTheMistake) {
  const BadFile& bad = GetParam();
  const TempTree tree;
  const std::filesystem::path file = tree.write("bad.model", bad.text);
  const std::string prefix = file.string() + ":" + std::to_string(bad.line) + ":" + std::to_string(bad.column) + ": ";
  try {
    load_model(file);
    FAIL() << "loaded without error";
  } catch (const ParseError& error) {
    EXPECT_THAT(error.what(), StartsWith(prefix));
    EXPECT_THAT(error.what(), HasSubstr(bad.phrase));
    EXPECT_EQ(error.where().line, bad.line);
    EXPECT_EQ(error.where().column, bad.column);
  }
}

INSTANTIATE_TEST_SUITE_P(Files, BadModel, ::testing::ValuesIn(kBadFiles),
                         [](const ::testing::TestParamInfo<BadFile>& param) { return std::string(param.param.label); });

// Formula errors come from the expression parser; what the model loader adds
// is the location, on the value's own line or on a continuation line.
struct BadFormula {
  const char* label;
  std::string text;
  int line;
  int column;
  const char* found;  // what the parser did not expect there
};

void PrintTo(const BadFormula& bad, std::ostream* out) { *out << bad.label; }

const BadFormula kBadFormulas[] = {
    {"FirstLine", with_header("[node A]\nformula = a + * b\n"), 7, 15, "'*'"},
    {"ContinuationLine", with_header("[node A]\nformula = a +\n     b * )\n"), 8, 10, "')'"},
    {"AfterACommentLine", with_header("[node A]\nformula = a +\n# note\n  b +\n\n\t  ) \n"), 11, 4, "')'"},
    {"Threshold", with_header("[node A]\nformula = 1\nthreshold = this >\n"), 8, 19, "end of formula"},
    {"Definition", with_header("[define]\nSLOTS = 4 * * cycles\n"), 7, 13, "'*'"},
};

class BadModelFormula : public ::testing::TestWithParam<BadFormula> {};

TEST_P(BadModelFormula, PointsAtTheCharacter) {
  const BadFormula& bad = GetParam();
  const TempTree tree;
  const std::filesystem::path file = tree.write("bad.model", bad.text);
  try {
    load_model(file);
    FAIL() << "loaded without error";
  } catch (const ParseError& error) {
    EXPECT_THAT(error.what(),
                StartsWith(file.string() + ":" + std::to_string(bad.line) + ":" + std::to_string(bad.column) + ": "));
    EXPECT_THAT(error.what(), HasSubstr(std::string("found ") + bad.found));
  }
}

INSTANTIATE_TEST_SUITE_P(Files, BadModelFormula, ::testing::ValuesIn(kBadFormulas),
                         [](const ::testing::TestParamInfo<BadFormula>& param) {
                           return std::string(param.param.label);
                         });

}  // namespace
}  // namespace topdown::model
