#include "merge_answers.h"

namespace iopddl {

void carry_over(const std::vector<int32_t>& theirs, const std::vector<int32_t>& met, const std::vector<int32_t>& mine,
                std::vector<int32_t>* merged, std::vector<int32_t>* carried) {
  *merged = theirs;
  carried->clear();
  if (met.size() != theirs.size() || mine.size() != theirs.size()) return;
  for (size_t i = 0; i < theirs.size(); ++i)
    if (mine[i] != met[i] && mine[i] != theirs[i]) {
      (*merged)[i] = mine[i];
      carried->push_back(int32_t(i));
    }
}

}  // namespace iopddl
