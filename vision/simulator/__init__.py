"""Throw simulator: rendered camera clips of two dice thrown at the back wall, with ground truth.

    from vision.simulator import simulate_throw, Scenario, SimClip
    clip = simulate_throw(seed=1, scenario=Scenario.BOTH_HIT, size=(640, 480), fps=60)
    clip.frames, clip.calibration, clip.truth, clip.save(dir), SimClip.load(dir)

Every clip of one image size shows the same table through the same camera, so shares one
calibration (`Table(size).calibration`); looks (felt, light, noise, glare, blur) and dice
colours vary with the seed. Frames are rendered when read (`clip.frames[i]`, iteration).

Extra cases: `Scenario.EXTRA_DIE` puts a third die on the felt (truth "extra": 1, its entry
"extra": True); `simulate_throw(..., hand=True)` draws the shooter's hand bringing the dice in
and withdrawing, `pickup=True` a hand taking the dice after they rest. Without them every seed
renders exactly as before (RANDOM never draws EXTRA_DIE).

Worlds (`worlds.WORLDS`, `worlds.world_of(name, seed, fps)`): "default" and "wide" as above;
"physical" (`physical.PhysicalSetup`) throws full 3-D tumbling cubes (`rigid`) in from below
the image, with wood / padding / rubber-pyramid walls, a hard lamp and integrated motion blur.

`render_dice` makes stills of dice placed at chosen image positions, `random_still` random ones
(reader tests). `simulate_session` yields consecutive throws on one table (demo).
`python -m vision.simulator bench|write|sheet` measures speed, saves a clip, draws a sheet.
"""

from .clip import SimClip
from .dice3d import DIE_COLOURS, PIP_LAYOUTS
from .hand import HandPose, HandStyle
from .physical import PhysicalSetup
from .render import DiePose, DieSpec, Still, random_still, render_dice
from .scenarios import Scenario, SimulationError, matches, simulate_session, simulate_throw
from .scene import Look, Table

__all__ = [
    "DIE_COLOURS",
    "PIP_LAYOUTS",
    "DiePose",
    "DieSpec",
    "HandPose",
    "HandStyle",
    "PhysicalSetup",
    "Look",
    "Scenario",
    "SimClip",
    "SimulationError",
    "Still",
    "Table",
    "matches",
    "random_still",
    "render_dice",
    "simulate_session",
    "simulate_throw",
]
