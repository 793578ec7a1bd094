#!/usr/bin/env python3
"""Cross-check `oware show --rules mancala --start-seeds 4 --trace` against
OpenSpiel's `mancala` (Kalah, four seeds a house) on random games.

OpenSpiel sows, repeats turns and captures as RULES.md §7 does. It does
not have the 25-seed stop, so a game is compared until our referee ends it
(RULES.md §7.8). Every field (pits, stores, side to move, legal moves) must
match at every ply; a game we end because the seeds left are in one row
must end there in OpenSpiel too, with the same stores once the seeds it
leaves on its final board are counted to their row's owner.

OpenSpiel's board: index 0 is North's store, 1..6 South's houses A..F,
7 South's store, 8..13 North's houses a..f.

Usage: openspiel_mancala_crosscheck.py --oware target/release/oware --games 300 [--seed 1]
Prints `N passed, M failed` (games) and the number of transitions compared.
"""

import json
import random
import re
import subprocess


def letter(player, action):
    return chr(ord("A") + action - 1) if player == 0 else chr(ord("a") + action - 8)


def snapshot(state):
    """(pits, stores, to_move, legal, over) of an OpenSpiel state."""
    rows = str(state).splitlines()
    north = [int(x) for x in rows[0].strip("-").split("-")][::-1]  # a..f
    stores = rows[1].split("-")
    south = [int(x) for x in rows[2].strip("-").split("-")]  # A..F
    store_north, store_south = int(stores[0]), int(stores[-1])
    over = state.is_terminal()
    player = state.current_player()
    legal = [] if over else [letter(player, a) for a in state.legal_actions()]
    to_move = None if over else ("S" if player == 0 else "N")
    return south + north, [store_south, store_north], to_move, legal, over


def play_random_game(seed):
    import pyspiel

    rng = random.Random(seed)
    state = pyspiel.load_game("mancala").new_initial_state()
    moves, states = [], [snapshot(state)]
    while not state.is_terminal():
        player = state.current_player()
        action = rng.choice(state.legal_actions())
        moves.append(letter(player, action))
        state.apply_action(action)
        states.append(snapshot(state))
    return moves, states


def ours(oware, moves):
    """Our trace of `moves`, up to where our referee ends the game (the
    moves OpenSpiel plays past our end are refused: the trace stops there)."""
    while True:
        out = subprocess.run(
            [oware, "show", "--rules", "mancala", "--start-seeds", "4", "--trace",
             "--moves", "".join(moves) or " "],
            capture_output=True, text=True, check=False,
        )
        if out.returncode == 0:
            return [json.loads(line) for line in out.stdout.splitlines()]
        found = re.search(r"move (\d+) \(.\) cannot be played: the game is over", out.stderr)
        if not found:
            raise RuntimeError(f"oware failed: {out.stderr.strip()}")
        moves = moves[: int(found.group(1)) - 1]


def compare(args):
    oware, seed = args
    moves, expected = play_random_game(seed)
    got = ours(oware, moves)
    for ply, mine in enumerate(got):
        theirs = expected[ply]
        if mine["status"] == "over":
            if mine["reason"] == "stop":
                # The 25-seed stop is ours alone: the games part here.
                return seed, ply, None
            actual = (mine["pits"], mine["stores"], None, [], True)
            # OpenSpiel leaves the last row's seeds on its final board (its
            # scores count them): sweep them as our referee does.
            pits, stores = theirs[0], theirs[1]
            swept = [stores[0] + sum(pits[:6]), stores[1] + sum(pits[6:])]
            theirs = ([0] * 12, swept, None, [], theirs[4])
        else:
            actual = (mine["pits"], mine["stores"], mine["to_move"], mine["legal"], False)
        if actual != theirs:
            return seed, ply, f"after {''.join(moves[:ply])!r}: ours {actual}, OpenSpiel {theirs}"
    if len(got) != len(expected):
        return seed, len(got) - 1, f"we end after {len(got) - 1} moves, OpenSpiel after {len(expected) - 1}"
    return seed, len(got) - 1, None


def main():
    # The same driver as the Oware cross-check beside this file.
    from openspiel_crosscheck import run

    run(compare, __doc__.splitlines()[0])


if __name__ == "__main__":
    main()
