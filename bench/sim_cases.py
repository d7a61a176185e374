"""The tracker on the simulator's extra cases: a third die, the shooter's hand, a hand picking
the dice up. Prints per case what the table would need and what the tracker gives.

    .venv/bin/python bench/sim_cases.py [--throws 30] [--seed 3000] [-v]

- extra_die: a third die rests in the area (Scenario.EXTRA_DIE, "thrown" and "stray"). The
  table needs ``extra == 1`` and the ruling DESIGN.md gives for more than two dice: operator
  (R-I2).
- hand: the six cases of bench/tracker.py in turn, each seed simulated twice, without and with
  the shooter's hand (``simulate_throw(hand=True)``): the same throw, so per-die value,
  hit_wall, left_area, cocked and the ruling compare directly. A throw should give exactly one
  observation.
- pickup: BOTH_HIT throws with the hand throwing and a hand picking the dice up after they
  rest (``hand=True, pickup=True``): the pick-up must not make a second observation (a phantom
  throw the table would rule).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tablectl.rulings import rule_throw  # noqa: E402
from tests.support.throws import SIM_CASES as CASES  # noqa: E402
from tests.support.throws import die_misses, feed_clip, match, pct, truth_ruling  # noqa: E402
from vision.tracker import ThrowTracker  # noqa: E402

AFTER_S = 1.0  # seconds filmed after the dice rest and the hand has left


def observe(clip, reader) -> list:
    """Every observation the tracker makes over the clip."""
    tracker = ThrowTracker(clip.calibration, reader=reader, annotate=False)
    return feed_clip(tracker, clip.frames)[0]


def the_throw(observations: list, truth: dict):
    """The observation of the throw itself: the first one ending after the dice were let go."""
    after = [o for o in observations if o.rest_frame >= truth["throw_start_frame"]]
    return after[0] if after else None


def score_dice(stats: Counter, prefix: str, truth: dict, obs, misses: list, label: str) -> None:
    """Per-die agreement with the truth (the two dice in play), as in bench/tracker.py."""
    dice = [d for d in truth["dice"] if not d.get("extra")]
    seen = match(dice, obs.dice) if obs is not None else [None] * len(dice)
    for td, od in zip(dice, seen, strict=True):
        stats[prefix + "dice"] += 1
        got_hit = od is not None and od.hit_wall
        got_left = od is not None and od.left_area
        got_cocked = od is not None and od.cocked
        stats[prefix + "hit_ok"] += got_hit == td["hit_wall"]
        stats[prefix + "left_ok"] += got_left == td["left_area"]
        stats[prefix + "cocked_ok"] += got_cocked == td["cocked"]
        if td["at_rest_in_area"] and not td["cocked"]:
            stats[prefix + "value_n"] += 1
            stats[prefix + "value_ok"] += od is not None and od.value == td["value"]
        bad = die_misses(td, od)
        if bad:
            misses.append(f"{label}: " + ", ".join(bad))


def count_money(stats: Counter, prefix: str, truth: dict, observations: list, obs, misses: list,
                label: str) -> None:
    """What costs money: a throw with a cocked die ruled paid (counts / warning), and any
    observation besides the throw's own (a ruling the table would journal for nothing)."""
    paid = obs is not None and rule_throw(obs).kind in ("counts", "warning")
    if paid and any(d["cocked"] for d in truth["dice"]):
        stats[prefix + "cocked_paid"] += 1
        misses.append(f"{label}: COCKED THROW PAID")
    stats[prefix + "phantom"] += sum(1 for o in observations if o is not obs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--throws", type=int, default=30, help="throws per case")
    ap.add_argument("--seed", type=int, default=3000, help="first seed (throw k uses seed+k)")
    ap.add_argument("--cases", default="extra_die,hand,pickup")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every miss")
    args = ap.parse_args()
    from vision.dice import DiceReader
    from vision.simulator import Scenario, simulate_throw

    reader = DiceReader()
    wanted = args.cases.split(",")
    t_start = time.perf_counter()
    if "extra_die" in wanted:
        s: Counter = Counter()
        misses: list[str] = []
        for k in range(args.throws):
            seed = args.seed + k
            clip = simulate_throw(seed, Scenario.EXTRA_DIE)
            kind = clip.truth["extra_kind"]
            obs_all = observe(clip, reader)
            s["throws"] += 1
            s[kind] += 1
            s[f"n_obs_{len(obs_all)}"] += 1
            obs = the_throw(obs_all, clip.truth)
            extra = obs.extra if obs is not None else None
            ruling = rule_throw(obs) if obs is not None else None
            ok_extra = extra == 1
            ok_rule = ruling is not None and (ruling.kind, ruling.rule) == ("operator", "R-I2")
            s["extra_ok"] += ok_extra
            s[f"extra_ok_{kind}"] += ok_extra
            s["ruling_ok"] += ok_rule
            if not (ok_extra and ok_rule):
                found = None if obs is None else sum(d.center is not None for d in obs.dice)
                misses.append(
                    f"extra_die seed {seed} ({kind}): {len(obs_all)} observations, extra "
                    f"{extra}, dice found {found}, ruling "
                    f"{None if ruling is None else (ruling.kind, ruling.rule, ruling.reason)}")
        print(f"extra_die: {s['throws']} throws ({s['thrown']} thrown, {s['stray']} stray)")
        print(f"  extra == 1        {pct(s['extra_ok'], s['throws'])}"
              f"   thrown {pct(s['extra_ok_thrown'], s['thrown'])}"
              f"   stray {pct(s['extra_ok_stray'], s['stray'])}")
        print(f"  ruling operator R-I2 {pct(s['ruling_ok'], s['throws'])}")
        print("  observations per throw: "
              + ", ".join(f"{key[6:]}: {v}" for key, v in sorted(s.items())
                          if key.startswith("n_obs_")))
        if args.verbose:
            for m in misses:
                print("   ", m)
    if "hand" in wanted:
        s = Counter()
        misses = []
        delays: dict[str, list[float]] = {"": [], "h_": []}
        for k in range(args.throws):
            seed = args.seed + k
            case = CASES[k % len(CASES)]
            for prefix, with_hand in (("", False), ("h_", True)):
                # a camera films on: a second after the dice rest (and the hand has gone)
                clip = simulate_throw(seed, case, hand=with_hand, after_seconds=AFTER_S)
                obs_all = observe(clip, reader)
                s[prefix + "throws"] += 1
                s[prefix + "one_obs"] += len(obs_all) == 1
                obs = the_throw(obs_all, clip.truth)
                if obs is not None:
                    quiet = max(clip.truth["rest_frame"],
                                clip.truth.get("hand", {}).get("leave_frame", 0))
                    delays[prefix].append((obs.rest_frame - quiet) / clip.fps)
                label = f"{'hand ' if with_hand else 'plain'} {case} seed {seed}"
                if len(obs_all) != 1:
                    misses.append(f"{label}: {len(obs_all)} observations (rest frames "
                                  f"{[o.rest_frame for o in obs_all]}, truth "
                                  f"{clip.truth['rest_frame']})")
                s[prefix + "ruling_ok"] += (obs is not None
                                            and rule_throw(obs).kind == truth_ruling(clip.truth))
                count_money(s, prefix, clip.truth, obs_all, obs, misses, label)
                score_dice(s, prefix, clip.truth, obs, misses, label)
        print(f"\nhand: {s['throws']} throws of the six cases, each without and with the hand")
        print("                 without hand           with hand")
        for name, num, den in (("value", "value_ok", "value_n"), ("hit_wall", "hit_ok", "dice"),
                               ("left_area", "left_ok", "dice"), ("cocked", "cocked_ok", "dice"),
                               ("ruling", "ruling_ok", "throws"),
                               ("one observation", "one_obs", "throws")):
            print(f"  {name:15s} {pct(s[num], s[den]):22s} {pct(s['h_' + num], s['h_' + den])}")
        med = [f"{sorted(v)[len(v) // 2]:.2f} s (max {max(v):.2f})" if v else "n/a"
               for v in delays.values()]
        print(f"  {'delay':15s} {med[0]:22s} {med[1]}   (observation after the dice rest and "
              "the hand is gone)")
        for name, key in (("cocked paid", "cocked_paid"), ("phantom rulings", "phantom")):
            print(f"  {name:15s} {s[key]:<22d} {s['h_' + key]}   (target 0)")
        if args.verbose:
            for m in misses:
                print("   ", m)
    if "pickup" in wanted:
        s = Counter()
        misses = []
        for k in range(args.throws):
            seed = args.seed + k
            clip = simulate_throw(seed, Scenario.BOTH_HIT, hand=True, pickup=True,
                                  after_seconds=AFTER_S)
            obs_all = observe(clip, reader)
            s["throws"] += 1
            s["one_obs"] += len(obs_all) == 1
            obs = the_throw(obs_all, clip.truth)
            s["ruling_ok"] += obs is not None and rule_throw(obs).kind == "counts"
            count_money(s, "", clip.truth, obs_all, obs, misses, f"pickup seed {seed}")
            score_dice(s, "", clip.truth, obs, misses, f"pickup seed {seed}")
            if len(obs_all) != 1:
                extra_obs = [(o.rest_frame, o.missing, o.extra,
                              rule_throw(o).kind) for o in obs_all[1:]]
                misses.append(f"pickup seed {seed}: {len(obs_all)} observations; after the "
                              f"first (rest frame, missing, extra, ruling): {extra_obs}; "
                              f"pick-up frames {clip.truth['pickup']}")
        print(f"\npickup: {s['throws']} BOTH_HIT throws with the hand throwing and picking up")
        print(f"  one observation  {pct(s['one_obs'], s['throws'])}   (the pick-up makes none)")
        print(f"  ruling counts    {pct(s['ruling_ok'], s['throws'])}")
        print(f"  cocked paid {s['cocked_paid']}   phantom rulings {s['phantom']}   (target 0)")
        print(f"  value {pct(s['value_ok'], s['value_n'])}  hit_wall {pct(s['hit_ok'], s['dice'])}"
              f"  left_area {pct(s['left_ok'], s['dice'])}")
        if args.verbose:
            for m in misses:
                print("   ", m)
    print(f"\n({time.perf_counter() - t_start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
