// Checkpoint saves: each save line, the parts of a checkpoint that many ranks write, saves whose
// end is never logged, and a save a fault cut short. Part of triage's reader (triage_impl.h).
#include "query/triage_impl.h"

namespace gpuerr::query {

void Triage::Impl::note_during_save(FileState& state, size_t line) {
  if (state.save_frame_line == 0 || line - state.save_frame_line > kFramesAboveError) return;
  read_so_far.events.back().during_save = true;
  state.save_frame_line = 0;
}

void Triage::Impl::close_open_save(FileState& state, std::string_view unread) {
  if (!shows_work(unread, state.open_save_rank, year, state.unread_after_frame)) return;
  for (CheckpointEvent& c : read_so_far.checkpoints)
    if (c.order == *state.open_save) c.completed = true;
  state.open_save.reset();
}

void Triage::Impl::record_save(const std::string& file, size_t line, std::string_view text,
                 std::optional<double> time, bool year_guessed, const SaveLine& save) {
  const bool completed = save.completed;
  track_part(file, time, save);
  std::deque<CheckpointEvent>& checkpoints = read_so_far.checkpoints;
  CheckpointEvent* previous = checkpoints.empty() ? nullptr : &checkpoints.back();
  if (completed && previous && !previous->completed)
    checkpoints.pop_back();  // the confirmation of the save that just started
  // A second start of the same save (Lightning's "saving model to <path>", then NeMo's
  // "Scheduled async checkpoint save for <path>"): the later line says how it ends.
  else if (!completed && previous && !previous->completed && previous->file == file &&
           !save.group.empty() && previous->group == save.group)
    checkpoints.pop_back();
  // A loop that logs only the start of its saves: when the same log starts another save a
  // while later, training went on after the one before, so that one returned.
  else if (!completed && previous && !previous->completed && previous->file == file && time &&
           previous->time && *time - *previous->time >= kSaveInterval)
    previous->completed = true;
  checkpoints.push_back({file, line, time, year_guessed, clipped(text), completed, order,
                         save.group, !completed && !save.end_logged, false,
                         time ? files[file].zone : std::nullopt});
  if (checkpoints.size() > kMaxCheckpoints) checkpoints.pop_front();
  if (!completed && !save.path.empty() && unfinished_parts.size() < kMaxUnfinishedParts)
    unfinished_parts.insert_or_assign(save.path, checkpoints.back());
}

void Triage::Impl::track_part(const std::string& file, std::optional<double> time,
                              const SaveLine& save) {
  std::erase_if(unfinished_parts, [&](const auto& part) {
    const auto& [path, start] = part;
    const bool ended = save.completed && (inside(save.path, path) || inside(path, save.path));
    if (ended && groups_with_ended_parts.size() < kMaxUnfinishedParts)
      groups_with_ended_parts.insert(start.group);
    const bool went_on = start.file == file && time && start.time &&
                         *time - *start.time >= kSaveInterval;
    return ended || went_on;
  });
}

}  // namespace gpuerr::query
