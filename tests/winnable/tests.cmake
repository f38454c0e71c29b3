# The whole ground truth in full mode (about 40 s of CPU): a Catch2 test hidden from discovery
# ("[.]"), run here by its name, labelled slow so that `ctest -LE slow` can leave it out.
add_test(NAME "winnable:5.2.2 winnability ground truth, full mode, every position: no unsound answer (slow)"
  COMMAND test_winnable "5.2.2 winnability ground truth, full mode, every position: no unsound answer")
set_tests_properties(
  "winnable:5.2.2 winnability ground truth, full mode, every position: no unsound answer (slow)"
  PROPERTIES LABELS slow TIMEOUT 600)
