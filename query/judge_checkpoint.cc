// Whether the last checkpoint can be trusted: the last save completed before the first fault,
// not cut short by it, and not written after a GPU memory error. Part of the judge (judge.h).
#include "query/judge.h"

namespace gpuerr::query::judging {

const CheckpointEvent* Judge::missing_part(const CheckpointEvent& c) const {
  for (const CheckpointEvent& part : in_.unfinished_parts) {
    if (part.group.empty() || !clock_.before(part, c)) continue;
    if (c.group.empty() ? says_word(c.text, part.group.substr(part.group.rfind('/') + 1))
                        : c.group == part.group)
      return &part;
  }
  return nullptr;
}

const CheckpointEvent* Judge::cut_short_save(const TriageReport& r) const {
  if (!r.first_fault || !r.first_fault->during_save) return nullptr;
  const LogEvent& f = *r.first_fault;
  const CheckpointEvent *in_file = nullptr, *before = nullptr;
  for (const CheckpointEvent& c : in_.checkpoints) {
    if (c.file == f.file && c.line < f.line)
      in_file = &c;
    else if (c.file != f.file && !c.time == !f.time && clock_.before(c, f))
      before = &c;
  }
  const CheckpointEvent* cut = in_file ? in_file : before;
  // (a whole save whose end its own line logged, "sharded checkpoint step-1500 saved", had
  // ended: the save the fault cut short is another, whose start was not logged; not one part of
  // a checkpoint in parts, "[Torch] Saved .../global_step500/zero_pp_rank_3_...", whose other
  // parts may be the ones under way)
  if (cut && cut->completed && !cut->end_unlogged && cut->group.empty()) return nullptr;
  return cut;
}

bool Judge::part_of(const CheckpointEvent& c, const CheckpointEvent& cut_short) {
  if (&c == &cut_short) return true;
  return !c.group.empty() && c.group == cut_short.group &&
         (c.order >= cut_short.order || c.file != cut_short.file);
}

void Judge::judge_checkpoint(TriageReport& r) {
  std::vector<LogEvent> memory = sorted([](const std::string& role) {
    return role == "memory-error" || role == "memory-notice";
  });
  // (a GPU or host the job did not use says nothing of its saves)
  std::erase_if(memory, [&](const LogEvent& m) { return !outside_job(m).empty(); });
  const CheckpointEvent* last = nullptr;
  const CheckpointEvent* unfinished = nullptr;
  const CheckpointEvent* unordered = nullptr;  // a save with no date to set against the fault's
  // An undated first fault (a traceback's error) happened by the next dated line of its file:
  // a save in another file completed before then was most likely written before the fault,
  // as a job that has failed completes no saves.
  // Failing that line, it happened before the first of its echoes with a date of their own
  // (the other ranks' collective timeouts). A fault with no dated line above it in its file
  // (a rank's assertion at the top of a console log) happened before the dated lines that
  // follow it there too (the launcher's report of the rank's exit).
  std::optional<LogEvent> fault_by = r.first_fault;
  if (fault_by && (fault_by->time_inherited || !fault_by->time)) {
    std::optional<double> by = fault_by->latest;
    const auto own_date = [&](const LogEvent& e) {
      return e.time && !e.time_inherited && (!e.year_guessed || in_.latest_dated);
    };
    for (const LogEvent& e : r.cascade)
      if (own_date(e) && e.file != fault_by->file &&
          (!fault_by->time || *e.time >= *fault_by->time))
        by = std::min(by.value_or(*e.time), *e.time);
    if (!fault_by->time)
      for (const LogEvent& e : in_.events)
        if (own_date(e) && e.file == fault_by->file && e.line > fault_by->line)
          by = std::min(by.value_or(*e.time), *e.time);
    if (by) fault_by->time = by;
  }
  // (an undated save is set against the fault as printed: both undated, their order is the
  // clock's, by the lines read)
  const auto fault_for = [&](const CheckpointEvent& c) -> const LogEvent& {
    return c.time ? *fault_by : *r.first_fault;
  };
  // Whether save `c`, in another file than the fault's, came before it. (A fault with no time of
  // its own sits in a file the clock cannot place; its bound is set against the save's date.)
  const auto before_fault_elsewhere = [&](const CheckpointEvent& c) {
    if (c.time && !r.first_fault->time && fault_by->time) return *c.time < *fault_by->time;
    return clock_.before(c, fault_for(c));
  };
  // A first fault with no line of its own (a hang that PyTorch's desync report or the ranks'
  // timeouts point to) began before its echoes: a save is before it when it is dated before
  // their first date, or, undated, above one of them in its own file.
  const auto before_hang = [&](const CheckpointEvent& c) {
    if (c.time && fault_by->time) return *c.time < *fault_by->time;
    return std::any_of(r.cascade.begin(), r.cascade.end(), [&](const LogEvent& e) {
      return e.file == c.file && e.line > c.line;
    });
  };
  const CheckpointEvent* cut_short = cut_short_save(r);
  for (const CheckpointEvent& c : in_.checkpoints) {
    if (cut_short && part_of(c, *cut_short)) {
      if (!unfinished || unfinished->group != c.group) unfinished = &c;
      continue;
    }
    if (r.first_fault && c.file != r.first_fault->file && !c.time != !fault_for(c).time) {
      // No clock to compare them by; but an error of the incident later in the save's own file
      // (the cascade's CUDA error after the Xid in the kernel's log) came after the save, and
      // a job that has failed completes no saves.
      if (c.completed && error_after(c)) last = &c, unfinished = nullptr;
      else if (c.completed) unordered = &c;
      continue;
    }
    const bool before_fault = !r.first_fault ||
                              (r.first_fault->file.empty() ? before_hang(c)
                               : c.file == r.first_fault->file
                                   ? clock_.before(c, *r.first_fault)
                                   : before_fault_elsewhere(c));
    if (!before_fault) {
      if (c.completed && r.first_fault && r.first_fault->role == "memory-error")
        r.checkpoints_after_fault.push_back(c);
      continue;
    }
    const bool settled = !c.completed && c.end_unlogged && c.own_time && fault_by &&
                         r.first_fault->time && *fault_by->time - *c.time >= kSaveSettled;
    if (const CheckpointEvent* part = c.completed ? missing_part(c) : nullptr)
      unfinished = part;
    else if (c.completed || settled)
      last = &c, unfinished = nullptr;
    else unfinished = &c;
  }
  if (!last && unordered) {
    r.last_checkpoint = *unordered;
    r.checkpoint_reason = "unknown: this save and the first fault are in different files and "
                          "only one of them is dated, so which came first is unknown";
    return;
  }
  // With no save of its own before the fault, the checkpoint the job resumed from is the one
  // to go back to: it was written before this run and read back without an error. A run reads
  // it as it starts: with no clock to say otherwise (the fault or the load undated, in another
  // file), the load came first.
  const std::optional<CheckpointEvent>& resumed = in_.resumed_from;
  const auto read_before_fault = [&](const CheckpointEvent& c) {
    if (!r.first_fault) return true;
    if (c.file == r.first_fault->file) return clock_.before(c, *r.first_fault);
    if (!c.time || !fault_for(c).time) return true;
    return before_fault_elsewhere(c);
  };
  if (!last && !unordered && resumed && read_before_fault(*resumed)) {
    r.last_checkpoint = *resumed;
    r.safe_to_resume = true;
    r.checkpoint_reason = "the checkpoint this run resumed from, read back before the first "
                          "fault; the run completed no save of its own before it";
    if (unfinished)
      r.checkpoint_reason += "; the save begun at " + unfinished->file + ":" +
                             std::to_string(unfinished->line) + " never completed: do not use it";
    return;
  }
  if (!last) {
    r.checkpoint_reason = r.first_fault ? "no completed checkpoint save before the first fault"
                                        : "no completed checkpoint save in the log";
    if (unfinished)
      r.checkpoint_reason += "; the save begun at " + unfinished->file + ":" +
                             std::to_string(unfinished->line) + " never completed";
    return;
  }
  r.last_checkpoint = *last;
  for (const LogEvent& m : memory) {
    // An undated report of an error that a dated line of its host also reports (nvidia-smi
    // -q's "Remapping Failure Occurred: Yes" after the kernel's Xid 64) is that error: the
    // dated one is set against the save.
    const bool dated_twin =
        !m.time && std::any_of(memory.begin(), memory.end(), [&](const LogEvent& d) {
          return d.time && d.entry_id == m.entry_id && may_be_same_host(d.host, m.host);
        });
    if (dated_twin) continue;
    if (m.file != last->file && !m.time != !last->time) {  // different clocks: no order
      r.safe_to_resume.reset();
      r.checkpoint_reason = "unknown: the GPU memory error (" + m.entry_id + " at " + where(m) +
                            ") has no date to set against this save's (a kernel uptime, or a "
                            "status report); for a kernel log, give the host's boot time with "
                            "--boot-time (`uptime -s` on that host)";
      return;
    }
    if (clock_.before(m, *last)) {
      resume_before(m, *last, r);
      return;
    }
  }
  r.safe_to_resume = true;
  r.checkpoint_reason = r.first_fault ? "completed before the first fault, with no GPU memory "
                                        "error before it"
                                      : "no fault and no GPU memory error in the log";
  if (unfinished)
    r.checkpoint_reason += "; a later save (" + unfinished->file + ":" +
                           std::to_string(unfinished->line) + ") never completed: do not use it";
}

bool Judge::error_after(const CheckpointEvent& c) const {
  for (size_t i = 0; i < in_.events.size(); ++i) {
    const LogEvent& e = in_.events[i];
    if (e.file == c.file && e.line > c.line && set_aside_[i].empty() &&
        (is_fault(e.role) || e.role == "consequence"))
      return true;
  }
  return false;
}

void Judge::resume_before(const LogEvent& m, const CheckpointEvent& last, TriageReport& r) {
  const CheckpointEvent* safe = nullptr;
  for (const CheckpointEvent& c : in_.checkpoints) {
    if (!c.completed || missing_part(c)) continue;
    const bool comparable = c.file == m.file || !c.time == !m.time;
    if (comparable && clock_.before(c, m)) safe = &c;
    else if (comparable && !clock_.before(last, c) && &c != &last)
      r.checkpoints_after_fault.push_back(c);  // (written after m, before `last`)
  }
  const std::string error = "a GPU memory error (" + m.entry_id + " at " + where(m) + ")";
  if (!safe) {
    r.safe_to_resume = false;
    r.checkpoint_reason = "written after " + error + ", and no save was completed before it";
    return;
  }
  r.checkpoints_after_fault.push_back(last);
  r.last_checkpoint = *safe;
  r.safe_to_resume = true;
  r.checkpoint_reason = "the last save completed before " + error +
                        "; the saves written after it are suspect";
}

}  // namespace gpuerr::query::judging
