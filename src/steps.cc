// The list of search steps: one line per step_*.cc file.
#include "step.h"

namespace iopddl {

std::vector<std::unique_ptr<SearchStep>> make_steps() {
  std::vector<std::unique_ptr<SearchStep>> steps;
  steps.push_back(make_elimination_step());
  steps.push_back(make_rounding_step());
  steps.push_back(make_neighbourhood_step());
  steps.push_back(make_proof_step());
  steps.push_back(make_epoch_crossover_step());
  return steps;
}

}  // namespace iopddl
