# The whole ground truth in full mode (about 60 s of CPU): a Catch2 test hidden from discovery
# ("[.]"), run here by its tag [slow] (a name with commas would be split into several specs),
# labelled slow so that `ctest -LE slow` can leave it out.
add_test(NAME "winnable:5.2.2 winnability ground truth, full mode, every position: no unsound answer (slow)"
  COMMAND test_winnable "[slow]" -w NoTests)
set_tests_properties(
  "winnable:5.2.2 winnability ground truth, full mode, every position: no unsound answer (slow)"
  PROPERTIES LABELS slow TIMEOUT 600)
