"""Named worlds of the simulator: what `simulate_throw` is given per throw, drawn per seed.

    from vision.simulator import simulate_throw
    from vision.simulator.worlds import world_of
    clip = simulate_throw(seed=s, scenario=case, size=size, **world_of("physical", s, 60.0))

- "default": the simulator as it always was: the table's camera tilt (15 degrees), the
  given fps, dice released just inside the image and moving on the felt plane with quarter
  rolls, a soft overhead light, smeared motion blur.
- "wide": as "default", but 30, 60 or 120 fps and a camera tilt of 0-15 degrees drawn from
  the seed.
- "physical": 30 / 60 / 120 fps and a camera tilt of 0-15 degrees drawn from the seed, and
  a `PhysicalSetup` drawn from it: full 3-D tumbling cubes (``rigid``) thrown from below the
  image at full speed (1-1.5 m/s to reach the wall), airborne in view (drawn larger, offset,
  with a shadow on the felt), corner- and edge-first contacts with the felt, the back wall
  and the other die; the back wall of wood (restitution 0.7-0.95), padding (0.3-0.5) or
  rubber pyramids (0.45-0.8, with a noisy rebound direction); one hard lamp 30-55 degrees
  above the table casting long sharp shadows; motion blur integrated over sub-frame poses
  for an exposure of 0.25-1 frame; cocked dice leaning 10-45 degrees on the wall or the other
  die.

"default" and "wide" are kept exactly as they were, so old figures stay comparable.

Seeds >= NEVER_TUNED_SEED (90000) of "physical" are the never-tuned setting: nobody tunes
anything (tracker, cues, simulator) on them; develop on seeds below it and report both.
"""

from __future__ import annotations

import numpy as np

from .physical import PhysicalSetup

WORLDS = ("default", "wide", "physical")
NEVER_TUNED_SEED = 90000  # "physical" seeds from here on are only ever reported


def world_of(world: str | None, seed: int, fps: float) -> dict:
    """The keyword arguments of `simulate_throw` (beyond seed, scenario, size) for one throw
    of `world` ("default" when None), drawn from `seed`; `fps` is used by "default" only."""
    if world in (None, "default"):
        return {"fps": fps}
    if world == "wide":
        rng = np.random.default_rng([seed, 77])
        return {"fps": float(rng.choice([30.0, 60.0, 120.0])),
                "tilt_deg": float(rng.uniform(0, 15))}
    if world == "physical":
        rng = np.random.default_rng([seed, 91])
        return {"fps": float(rng.choice([30.0, 60.0, 120.0])),
                "tilt_deg": float(rng.uniform(0, 15)),
                "physical": PhysicalSetup.random(rng)}
    raise ValueError(f"unknown world {world!r}: one of {WORLDS}")
