#!/usr/bin/env python3
"""Cross-check `oware show --trace` against OpenSpiel's Oware on random games.

OpenSpiel implements Abapa with the repetition rule. It sweeps the board into
the owners' stores at every game end, including when a player reaches 25; our
referee leaves the board as it is in that case, so that one difference is
allowed for here. Every other field (pits, stores, side to move, legal moves,
whether the game is over) must match exactly.

Usage: openspiel_crosscheck.py --oware target/release/oware --games 300 [--seed 1]
Prints `N passed, M failed` (games) and the number of transitions compared.
"""

import argparse
import json
import multiprocessing
import random
import subprocess
import sys

MAX_PLIES = 900  # OpenSpiel refuses to play past its maximum game length.


def letter(player, action):
    return chr((ord("A") if player == 0 else ord("a")) + action)


def snapshot(state):
    """(pits, stores, to_move, legal, over) of an OpenSpiel state."""
    fields = state.observation_string(0).replace("|", " ").split()
    to_move = "S" if fields[0] == "0" else "N"
    stores = [int(fields[1]), int(fields[2])]
    pits = [int(x) for x in fields[3:15]]
    player = int(fields[0])
    legal = [letter(player, a) for a in state.legal_actions()]
    return pits, stores, to_move, legal, state.is_terminal()


def play_random_game(seed):
    import pyspiel

    rng = random.Random(seed)
    state = pyspiel.load_game("oware").new_initial_state()
    moves, states = [], [snapshot(state)]
    while not state.is_terminal() and len(moves) < MAX_PLIES:
        player = state.current_player()
        action = rng.choice(state.legal_actions())
        moves.append(letter(player, action))
        state.apply_action(action)
        states.append(snapshot(state))
    return moves, states


def ours(oware, moves):
    out = subprocess.run(
        [oware, "show", "--trace", "--moves", "".join(moves) or " "],
        capture_output=True, text=True, check=False,
    )
    if out.returncode != 0:
        raise RuntimeError(f"oware failed: {out.stderr.strip()}")
    return [json.loads(line) for line in out.stdout.splitlines()]


def compare(args):
    oware, seed = args
    moves, expected = play_random_game(seed)
    got = ours(oware, moves)
    if len(got) != len(expected):
        return seed, len(got), f"{len(got)} states traced, OpenSpiel has {len(expected)}"
    for ply, (mine, theirs) in enumerate(zip(got, expected)):
        pits, stores = list(mine["pits"]), list(mine["stores"])
        if mine["reason"] == "majority":
            stores = [stores[0] + sum(pits[:6]), stores[1] + sum(pits[6:])]
            pits = [0] * 12
        actual = (pits, stores, mine["to_move"], mine["legal"], mine["status"] == "over")
        if actual != theirs:
            return seed, ply, f"after {''.join(moves[:ply])!r}: ours {actual}, OpenSpiel {theirs}"
    return seed, len(got) - 1, None


def run(compare, description):
    """Plays `--games` random games through `compare(oware, seed)`, which
    returns (seed, transitions or the ply of a mismatch, error or None),
    and prints the totals; exits 1 on any mismatch."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--oware", required=True, help="path of the oware binary")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args()

    seeds = [(args.oware, args.seed * 1_000_003 + i) for i in range(args.games)]
    passed = failed = transitions = 0
    with multiprocessing.Pool(args.jobs) as pool:
        for seed, count, error in pool.imap_unordered(compare, seeds, chunksize=8):
            if error:
                failed += 1
                if failed <= 10:
                    print(f"game seed {seed}: mismatch at ply {count}: {error}", file=sys.stderr)
            else:
                passed += 1
                transitions += count
    print(f"compared {transitions} transitions in {passed + failed} games, {failed} mismatching")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def main():
    run(compare, __doc__.splitlines()[0])


if __name__ == "__main__":
    main()
