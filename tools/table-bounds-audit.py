#!/usr/bin/env python3
"""How well an engine keeps what the endgame tables guarantee it.

Reads the OGN records `oware match --ogn FILE` writes (Abapa), replays each
game with `oware show --trace`, and probes every position the tables hold
with `oware probe --json`. At such a position the side to move is
guaranteed `store + gM` seeds at the end whatever the opponent does
(docs/src/rules.md: a table entry is the pair of guarantees). The script reports:

- positions where the mover could not lose (guaranteed >= 24) and lost,
  or had a sure win (>= 25) and did not win;
- drops: a side guaranteed fewer seeds at a fresh position than at the
  fresh position before it (the opponent cannot lower a side's
  guarantee, so a drop is the side's own doing), and drops of the
  guaranteed result (a win, a draw at least, nothing), with how those
  games ended for the side;
- the same counts for each engine (the South and North tags; by side when
  both have one name), over the side it played.

A game the rules ended is judged by its stores; one ended otherwise (on
time, by a fault, by adjudication or the ply cap) by its Winner tag, and
"ended below its guarantee" is not counted for it.

The guarantees hold for a fresh history (docs/src/rules.md, "What a table
entry means"): only positions at the start of the record or right after a
capture are counted.

Usage: tools/table-bounds-audit.py --oware target/release/oware \
           --db DIR [--max-level 24] [--json] RECORDS.ogn [...]
"""

import argparse
import json
import re
import subprocess
import sys
from collections import Counter


def parse_records(text):
    """Yields (tags, moves) for each game of a multi-game OGN file."""
    games = re.split(r"\n\s*\n(?=\[)", text.strip())
    for game in games:
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', game, re.M))
        body = "\n".join(line for line in game.splitlines() if not line.startswith("["))
        body = re.sub(r"\{[^}]*\}", " ", body)
        moves = []
        for token in body.split():
            if re.fullmatch(r"\d+\.(\.\.)?", token):
                continue
            if re.fullmatch(r"\d+-\d+|1-0|0-1|1/2-1/2|\*", token):
                break
            m = re.fullmatch(r"([A-Fa-f])(\+\d+)?", token)
            if not m:
                raise ValueError(f"unexpected token {token!r}")
            moves.append(m.group(1))
        yield tags, moves


def trace(oware, start, moves):
    out = subprocess.run(
        [oware, "show", start, "--moves", " ".join(moves) or "", "--trace"],
        capture_output=True, text=True, check=True,
    ).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def probe(oware, db, position):
    out = subprocess.run(
        [oware, "probe", position, "--dir", db, "--json"],
        capture_output=True, text=True,
    )
    if out.returncode != 0:
        return None
    return json.loads(out.stdout)


NAMES = ["nothing", "draw", "win"]
OUTCOMES = ["lost", "drew", "won"]


def category(seeds):
    """The result a count of seeds at the end guarantees: 2 win, 1 draw, 0 loss."""
    return 2 if seeds >= 25 else 1 if seeds == 24 else 0


def audit_game(oware, db, max_level, tags, moves):
    start = tags.get("FEN", "startpos")
    states = trace(oware, start, moves)
    final = states[-1]["stores"]
    # How each side's game ended: by the stores when the rules ended it,
    # else (time, a fault, adjudication, the ply cap) by the Winner tag.
    normal = tags.get("Termination", "normal").startswith("normal")
    if normal:
        outcome = [category(final[0]), category(final[1])]
    else:
        winner = tags.get("Winner", "draw")
        outcome = {"South": [2, 0], "North": [0, 2]}.get(winner, [1, 1])
    side = {"S": 0, "N": 1}
    report = Counter()
    # The same counts for each side (0 South, 1 North): who was to move at
    # a probed position, who dropped a guarantee.
    by_side = (Counter(), Counter())
    before = None  # both sides' guarantees at the previous fresh position
    stores = None
    for state in states:
        # The tables' guarantees hold for a fresh history: at the start, and
        # right after a capture (docs/src/rules.md); elsewhere a repetition may cut
        # a forcing line short.
        fresh = stores is None or state["stores"] != stores
        stores = state["stores"]
        if state["status"] != "ongoing":
            guarantees = list(state["stores"])
            mover = None
        else:
            if sum(state["pits"]) > max_level or not fresh:
                continue
            entry = probe(oware, db, state["position"])
            if entry is None:
                continue
            mover = side[state["to_move"]]
            guarantees = [0, 0]
            guarantees[mover] = state["stores"][mover] + entry["gm"]
            guarantees[1 - mover] = state["stores"][1 - mover] + entry["gn"]
            mine = guarantees[mover]
            for counts in (report, by_side[mover]):
                counts["probed"] += 1
                if mine >= 24:
                    counts["cannot_lose"] += 1
                    if outcome[mover] == 0:
                        counts["cannot_lose_but_lost"] += 1
                if mine >= 25:
                    counts["sure_win"] += 1
                    if outcome[mover] < 2:
                        counts["sure_win_but_not_won"] += 1
                if normal and final[mover] < mine:
                    counts["ended_below_guarantee"] += 1
        if before is not None:
            # Between two fresh positions the opponent cannot lower a
            # side's guarantee: a drop is that side's own doing.
            for who in (0, 1):
                was, now = before[who], guarantees[who]
                if now >= was:
                    continue
                for counts in (report, by_side[who]):
                    counts["drops"] += 1
                    counts["seeds_given_away"] += was - now
                    if category(now) < category(was):
                        counts["result_drops"] += 1
                        counts[f"dropped_{NAMES[category(was)]}_to_{NAMES[category(now)]}"] += 1
                        counts[f"dropped_then_{OUTCOMES[outcome[who]]}"] += 1
        before = guarantees
    first = {}
    for name in ("cannot_lose_but_lost", "sure_win_but_not_won", "result_drops", "drops"):
        first[name] = 1 if report[name] else 0
    return report, first, by_side


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oware", default="target/release/oware")
    parser.add_argument("--db", required=True)
    parser.add_argument("--max-level", type=int, default=24)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("records", nargs="+")
    args = parser.parse_args()
    totals, games_with = Counter(), Counter()
    engines = {}
    games = 0
    for path in args.records:
        with open(path) as f:
            text = f.read()
        for tags, moves in parse_records(text):
            report, first, by_side = audit_game(args.oware, args.db, args.max_level, tags, moves)
            totals.update(report)
            games_with.update(first)
            names = [tags.get("South", "South"), tags.get("North", "North")]
            if names[0] == names[1]:
                # Two engines of one name are told apart by their side.
                names = [f"{names[0]} (South)", f"{names[1]} (North)"]
            for name, counts in zip(names, by_side):
                engines.setdefault(name, Counter()).update(counts)
            games += 1
    result = {
        "games": games,
        "positions": dict(totals),
        "games_with": dict(games_with),
        "engines": {name: dict(counts) for name, counts in engines.items()},
    }
    if args.json:
        print(json.dumps(result, sort_keys=True))
        return
    print(f"games: {games}, positions probed: {totals['probed']}")
    for key in sorted(totals):
        if key != "probed":
            print(f"  {key}: {totals[key]}")
    print("games with at least one:")
    for key in sorted(games_with):
        print(f"  {key}: {games_with[key]} of {games}")
    for name in sorted(engines):
        counts = engines[name]
        print(f"{name} (the side it played):")
        for key in sorted(counts):
            print(f"  {key}: {counts[key]}")


if __name__ == "__main__":
    sys.exit(main())
