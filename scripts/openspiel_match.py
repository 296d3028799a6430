#!/usr/bin/env python3
"""OpenSpiel's MCTSBot against a Kolrami captain (docs/research.md): `--battles` short battles
of the python_kolrami game (kolrami.rl.openspiel), sides alternating, seeds from `--start`,
the bot's score (win 1, draw 1/2) with a 95% Wilson interval. Needs the openspiel extra.

    python scripts/openspiel_match.py aggressive --battles 20 --turns 3 --simulations 16
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from kolrami.captains.registry import make_captain
from kolrami.engine.driver import captain_dice
from kolrami.rl import openspiel
from kolrami.sim.stats import wilson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("captain")
    parser.add_argument("--battles", type=int, default=20)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--simulations", type=int, default=16)
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--scenario", default="standard")
    parser.add_argument("--start", type=int, default=1000)
    args = parser.parse_args()
    score = 0.0
    started = time.perf_counter()
    for k in range(args.battles):
        seed = args.start + k
        game = pyspiel.load_game(
            openspiel.NAME, {"scenario": args.scenario, "turns": args.turns, "seed": seed}
        )
        state = game.new_initial_state()
        bot_player = k % 2  # the bot plays side A in even battles, side B in odd ones
        bot = mcts.MCTSBot(
            game,
            2.0,
            args.simulations,
            mcts.RandomRolloutEvaluator(args.rollouts, np.random.RandomState(seed)),
            random_state=np.random.RandomState(seed + 1),
        )
        side = "AB"[1 - bot_player]
        captain = make_captain(args.captain, captain_dice(seed, side))
        view = state.match.views[side]
        while not state.is_terminal():
            if state.current_player() == bot_player:
                state.apply_action(bot.step(state))
            else:
                decision = state.match.decision
                state.match.give(captain.decide(view, decision))
        got = state.returns()[bot_player]
        score += (got + 1) / 2
    lo, hi = wilson(score, args.battles)
    print(
        json.dumps(
            {
                "bot": f"MCTSBot(simulations={args.simulations}, rollouts={args.rollouts})",
                "opponent": args.captain,
                "scenario": args.scenario,
                "turns": args.turns,
                "battles": args.battles,
                "seeds": [args.start, args.start + args.battles - 1],
                "score": round(score / args.battles, 3),
                "wilson_95": [round(lo, 3), round(hi, 3)],
                "seconds": round(time.perf_counter() - started, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
