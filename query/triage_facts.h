// What triage has read from a log, before judging it: the recognised events, checkpoint saves,
// settings, watchdog progress per rank and launcher lines. Shared by triage.cc (reading) and
// verdict.cc (judging) only.
#pragma once

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "query/store.h"
#include "query/triage.h"

namespace gpuerr::query {

/// One rank's last word on its collectives.
struct RankProgress {
  std::optional<long> timed_out_seq;  // the SeqNum its watchdog gave up on
  std::optional<long> last_enqueued;  // the last collective it issued
  std::string file;
  size_t line = 0;
};

struct TriageFacts {
  std::vector<LogEvent> events;  // in order of first appearance
  std::vector<LogEvent> kills;   // processes killed by a signal (read_kill), role "killed"
  std::deque<CheckpointEvent> checkpoints;
  std::set<std::string> settings;
  std::map<int, std::map<int, RankProgress>> watchdog;  // process group -> rank -> progress
  std::optional<Evidence> launcher_summary;
  size_t teardown_lines = 0;
  size_t lines = 0, bytes = 0;
  std::optional<double> latest_dated;  // the latest time of a full date (with its year)
};

/// The report: first fault, cascade, verdict, checkpoint safety, first action.
TriageReport judge(const TriageFacts& facts, const Store& store);

}  // namespace gpuerr::query
