#!/usr/bin/env python3
"""The measurements behind bench/run (see bench/README.md). Each timed command is started with
posix_spawn and timed to its exit (peak memory is read in a separate pass by GNU time); the
commands compared with each other are alternated in one loop, so that a slower moment of a
shared machine falls on all of them alike."""
import argparse, datetime, glob, os, platform, statistics, subprocess, sys, time

import yaml


def run(argv):
    """Runs argv to completion; returns (seconds, exit code)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1),
                                       (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status = os.waitpid(pid, 0)
    seconds = time.perf_counter() - start
    os.close(devnull)
    return seconds, os.waitstatus_to_exitcode(status)


def peak_mib(argv, work):
    """Peak resident memory of argv in MiB, read by GNU time (a child spawned from this Python
    process would report the parent's memory as its own high-water mark)."""
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", f"{work}/rss"] + argv,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return int(open(f"{work}/rss").read().split()[-1]) / 1024


def which(name):
    for d in os.environ["PATH"].split(":"):
        if os.access(os.path.join(d, name), os.X_OK):
            return os.path.join(d, name)
    sys.exit(f"bench: '{name}' is not installed")


def queries(root, log_lines):
    """About 20 queries of four shapes, chosen by rule from the evaluation corpus and the triage
    fixtures: short lines, long pastes, negatives, and log excerpts."""
    cases = []
    for path in sorted(glob.glob(os.path.join(root, "tests/eval/corpus/*.yaml"))):
        cases += yaml.safe_load(open(path, encoding="utf-8"))
    short = [c for c in cases if c["expect"] and "\n" not in c["text"].strip() and len(c["text"]) < 120]
    long = [c for c in cases if c["expect"] and c["text"].count("\n") >= 6]
    negative = [c for c in cases if not c["expect"]]
    pick = lambda xs, n: [xs[i * len(xs) // n] for i in range(n)]
    out = [("short", c["text"]) for c in pick(short, 8)]
    out += [("long", c["text"]) for c in pick(long, 4)]
    out += [("negative", c["text"]) for c in pick(negative, 4)]
    for name in ("illegal-access-cascade", "nccl-hang", "xid79-dmesg", "oom-one-rank"):
        lines = open(os.path.join(root, f"tests/data/triage/{name}.log"), encoding="utf-8").readlines()
        out.append(("log excerpt", "".join(lines[:log_lines])))
    return out


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def lookup_bench(build, index, qs, rounds, work):
    """Whole-process lookup against hello-world and quest, alternated per query."""
    gpuerr, hello, quest = f"{build}/bin/gpuerr", f"{build}/bin/bench_hello", which("quest")
    times = {"hello": [], "gpuerr": [], "quest": []}
    rss = {k: 0.0 for k in times}
    commands = lambda text: (("hello", [hello]),
                             ("gpuerr", [gpuerr, "--index", index, "lookup", "--json", "--", text]),
                             ("quest", [quest, "-d", f"{index}/xapian", text]))
    for _ in range(rounds):
        for _, text in qs:
            for name, argv in commands(text):
                seconds, code = run(argv)
                if name == "gpuerr" and code not in (0, 1):
                    sys.exit(f"bench: gpuerr lookup failed (exit {code})")
                times[name].append(seconds)
    for _, text in qs:
        for name, argv in commands(text):
            rss[name] = max(rss[name], peak_mib(argv, work))
    return {k: (statistics.median(v), pct(v, 0.9), rss[k]) for k, v in times.items()}


def inprocess_bench(build, index, qs, rounds, work):
    files = []
    for i, (_, text) in enumerate(qs):
        files.append(f"{work}/query-{i:02d}.txt")
        open(files[-1], "w", encoding="utf-8").write(text)
    out = subprocess.run([f"{build}/bin/bench_lookup_inprocess", index, str(rounds)] + files,
                         capture_output=True, text=True, check=True).stdout.split("\n")
    values = {l.split()[0]: l.split()[1:] for l in out if l}
    medians = [float(l.split()[2]) for l in out if l.startswith("query ")]
    p90s = [float(l.split()[3]) for l in out if l.startswith("query ")]
    return float(values["open"][0]), float(values["first"][0]), statistics.median(medians), max(p90s)


def index_bench(build, kb, rounds, work):
    ours, plain = [], []
    for i in range(rounds):
        for name, argv, into in (("gpuerr", [f"{build}/bin/gpuerr", "index", "--kb", kb, "--out"], ours),
                                 ("plain", [f"{build}/bin/bench_plain_index", kb], plain)):
            out = f"{work}/index-{name}-{i}"
            seconds, code = run(argv + [out])
            if code != 0:
                sys.exit(f"bench: {name} index of {kb} failed (exit {code})")
            into.append(seconds)
            subprocess.run(["rm", "-rf", out], check=True)
    return statistics.median(ours), statistics.median(plain)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--entries", type=int, required=True, help="size of the synthetic kb")
    ap.add_argument("--rounds", type=int, required=True)
    ap.add_argument("--index-rounds", type=int, required=True)
    ap.add_argument("--triage", required=True, help="the output of bench/triage-throughput")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    qs = queries(root, 40)
    synthetic = f"{a.work}/kb-{a.entries}"
    subprocess.run([f"{root}/bench/make-kb", str(a.entries), synthetic], check=True)
    kbs = [("bundled", f"{root}/kb"), (f"synthetic {a.entries}", synthetic)]
    rows = []
    for label, kb in kbs:
        index = f"{a.work}/index-{label.split()[0]}"
        subprocess.run([f"{a.build}/bin/gpuerr", "index", "--kb", kb, "--out", index], check=True,
                       stdout=subprocess.DEVNULL)
        entries = subprocess.run([f"{a.build}/bin/gpuerr", "--index", index, "list"],
                                 capture_output=True, text=True).stdout.count("\n")
        look = lookup_bench(a.build, index, qs, a.rounds, a.work)
        inproc = inprocess_bench(a.build, index, qs, max(3, a.rounds), a.work)
        build_times = index_bench(a.build, kb, a.index_rounds, a.work)
        rows.append((label, entries, look, inproc, build_times))
    write_report(a, qs, rows, open(a.triage, encoding="utf-8").read())


def write_report(a, qs, rows, triage):
    ms = lambda s: f"{s * 1000:.1f} ms"
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    lines = [f"# Benchmark results, {datetime.date.today().isoformat()}", "",
             f"Machine: {os.cpu_count()} cores, {cpu}, {platform.system()} {platform.release()}. "
             f"Command: `bench/run` ({a.rounds} rounds of {len(qs)} queries per index, "
             f"{a.index_rounds} index builds of each kind).", "", "## Ratios against the targets", "",
             "| measure | kb | ratio | target | met |", "| --- | --- | --- | --- | --- |"]
    for label, entries, look, inproc, (ours, plain) in rows:
        hello_limit = 3 if label == "bundled" else 4
        r_hello = look["gpuerr"][0] / look["hello"][0]
        r_quest = look["gpuerr"][0] / look["quest"][0]
        r_index = ours / plain
        for name, r, target in ((f"lookup / hello-world (median)", r_hello, hello_limit),
                                ("lookup / quest (median)", r_quest, 1.2),
                                ("index build / plain Xapian+FTS5", r_index, 2)):
            lines.append(f"| {name} | {label} ({entries}) | {r:.2f}x | <= {target}x | "
                         f"{'yes' if r <= target else 'no'} |")
        lines.append(f"| lookup peak memory | {label} ({entries}) | {look['gpuerr'][2]:.1f} MiB | "
                     f"<= 30 MB | {'yes' if look['gpuerr'][2] * 1.048576 <= 30 else 'no'} |")
    lines += ["", "## Lookup, whole process (`gpuerr lookup --json`)", "",
              "| kb | error entries | gpuerr median | p90 | peak RSS | hello-world median | quest median | quest peak RSS |",
              "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for label, entries, look, _, _ in rows:
        g, h, q = look["gpuerr"], look["hello"], look["quest"]
        lines.append(f"| {label} | {entries} | {ms(g[0])} | {ms(g[1])} | {g[2]:.1f} MiB | {ms(h[0])} | "
                     f"{ms(q[0])} | {q[2]:.1f} MiB |")
    lines += ["", "## Lookup in process (`bench_lookup_inprocess`)", "",
              "| kb | open the index | first lookup | later lookups, median of per-query medians | worst per-query p90 |",
              "| --- | --- | --- | --- | --- |"]
    for label, _, _, (opened, first, median, p90), _ in rows:
        lines.append(f"| {label} | {opened / 1000:.2f} ms | {first / 1000:.2f} ms | {median / 1000:.3f} ms | {p90 / 1000:.3f} ms |")
    lines += ["", "## Index build", "", "| kb | gpuerr index | bench_plain_index | ratio |", "| --- | --- | --- | --- |"]
    for label, _, _, _, (ours, plain) in rows:
        lines.append(f"| {label} | {ours:.2f} s | {plain:.2f} s | {ours / plain:.2f}x |")
    lines += ["", "## Triage (`bench/triage-throughput`)", "", "```", triage.strip(), "```", "",
              "Queries: " + ", ".join(f"{sum(1 for s, _ in qs if s == shape)} {shape}"
                                      for shape in ("short", "long", "negative", "log excerpt")) + "."]
    open(a.out, "w", encoding="utf-8").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
