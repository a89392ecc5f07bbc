// The list of search steps: one line per step_*.cc file.
#include "step.h"

namespace iopddl {

std::unique_ptr<SearchStep> make_elimination_step();    // step_elimination.cc
std::unique_ptr<SearchStep> make_rounding_step();       // step_rounding.cc
std::unique_ptr<SearchStep> make_neighbourhood_step();  // step_neighbourhood.cc
std::unique_ptr<SearchStep> make_proof_step();          // step_proof.cc
std::unique_ptr<SearchStep> make_epoch_crossover_step();  // step_epoch_crossover.cc

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
