#include "lagrangian_bound.h"

#include "search_state.h"

namespace iopddl {

void LagrangianBound::init(const SearchModel& m, Source source, const Contraction* contraction) {
  m_ = &m;
  source_ = source;
  contraction_ = contraction;
  relax_.init(m, MemoryRelax::Schedule::kSegments);
  if (relax_.needed()) mp_.init(contraction ? contraction->model() : m);
  offset_ = 0;
  rounding_.clear();
}

void LagrangianBound::take_answer(const std::vector<int32_t>& a, double cost, double upper, Rng* rng) {
  if (source_ == Source::kSearchAnswers) relax_.update(a, cost, upper, rng);
}

bool LagrangianBound::iterate(int64_t call, int refresh, double upper, Rng* rng,
                              const std::function<bool()>* should_stop) {
  if (call % refresh == 1 % refresh) {
    if (source_ == Source::kOwnRounding && !rounding_.empty()) {
      const std::vector<int32_t>* a = &rounding_;
      if (contraction_) {
        contraction_->expand(rounding_, &expanded_);
        a = &expanded_;
      }
      SearchState s;
      s.init(*m_, *a);
      relax_.update(*a, s.cost, upper, rng);
    }
    relax_.node_weights(&weight_);
    price_messages(contraction_, weight_, &mp_, &extra_);
    offset_ = relax_.penalty_offset();
  }
  const bool done = mp_.iterate(source_ == Source::kOwnRounding ? &rounding_ : nullptr, should_stop);
  if (!done) rounding_.clear();  // a pass cut short leaves no rounding
  return done;
}

double LagrangianBound::bound(double* magnitude) const {
  double mag = 0;
  const double lb = mp_.lower_bound(&mag) - offset_;
  *magnitude = mag + offset_;
  return lb;
}

}  // namespace iopddl
