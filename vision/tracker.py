"""Follow a throw from the first motion to both dice at rest, and say what happened.

``ThrowTracker(calibration, reader).feed(timestamp, frame)`` takes every camera frame and returns
a :class:`~vision.observation.ThrowObservation` on the frame where a throw ends (both dice at
rest), else None. The states::

    idle --motion in the area--> throw --every die still for settle_s--> read faces, observe --> idle
                                       --no die moved / nothing left--> idle (no observation)
                                       --a hand comes to the resting dice--> observe the last
                                         frame before it came (or nothing) --> idle

The shooter's hand (and any blob bigger than a few dice) is never a die: no die is first seen
touching the image's border or within ``hand_birth_margin`` of a hand, so pieces of the hand
(its edge at the border, its shadow) are not taken for dice, and dice coming out from under
the hand are taken up as soon as they are clear of it (``from_hand``: thrown, even if the hand
hid their roll); so are dice first seen just clear of the border where a blob touched it the
frame before (``entered``: they came into the view). A hand coming in after the dice rested is a pick-up: the dice of the last
throw may vanish under it (only dice of this throw that moved can be "thrown out of view").
A hand reaching the dice before ``settle_s`` is over ends the throw on the last frame before it
came near, if the dice lay still ``hand_rest_s`` by then; else nothing is observed.

Speed: motion and blobs are found on a copy shrunk by an integer factor (a die ~7-12 px there),
against a background model of the empty felt that is only updated while idle and never under a
resting die (a die's pixels: changed by more than ``diff_threshold`` and not the felt darkened
evenly, or, for a die of nearly the felt's colour, of another hue than the felt's); faces are read once, on the full-resolution rest frame, with the reader.

Per die, the tracker coordinates the other ideas of ``vision``:

- ``vision.die_track``: one die followed through the throw (``DieTrack``).
- ``vision.shooter_hand``: the hand's zone, and which blobs are pieces of it.
- ``vision.throw_geometry``: the area and the back wall; ``hit_wall`` (from the physics of a
  tumbling cube: ``WallContact``) and ``left_area`` (R-I1).
- ``vision.die_silhouette``: a resting die's silhouette and box on the full-resolution rest
  frame, against the felt as it was before the throw.
- ``vision.cocked``: ``cocked``: the reader's flag, or (``CockedSettings.geometric_cocked``)
  the top face's foreshortening, the wall cue and the pair cue (docs/replay.md).
- ``vision.lens``: with the calibration's ``lens_k1`` (a wide lens's barrel), every idea above
  works on the frames straightened (the work copy each frame; the full frame only where it is
  read: the felt before the throw and the rest frame), with the calibration's points moved
  there; the observation's points are given back on the camera's image. ``lens_k1`` = 0: the
  frames as they come, nothing paid.
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.camera_view import CameraView, CameraViewError
from vision.cocked.judge import judge_cocked
from vision.cocked.settings import CockedSettings, Reader
from vision.die_silhouette import RestSilhouettes, changed_pixels, felt_in_shadow
from vision.die_track import DieTrack, swapped_bend
from vision.lens import Lens
from vision.mount_steady import MountSteadier
from vision.observation import DieObservation, ThrowObservation
from vision.shooter_hand import hand_near, hand_zone, near_hand, touches_border
from vision.throw_geometry import TableGeometry, WallContact, segment_distance

IDLE, THROW = "idle", "throw"
_SUM_BGR = np.ones((1, 3), np.float32)  # cv2.transform: the sum over B, G, R


@dataclass
class TrackerSettings:
    """Tuning of the tracker (defaults suit 30-120 fps and a die of 20-80 px).

    :param expected_dice: dice in play (R-E1: two).
    :param diff_threshold: sum over B, G, R of |frame - background| above which a pixel is a
        die's (0..765).
    :param settle_s: a die is at rest after this long without moving or changing its look.
    :param lost_s: a die unseen this long is gone (left the view, picked up).
    :param max_throw_s: a throw that does not settle within this is dropped without observation.
    :param max_gap_s: a gap between frames longer than this (a camera that reconnected) drops the
        throw in progress: frames are never invented.
    :param background_alpha: how fast the idle background follows the felt (per frame).
    :param scale: the shrink factor for motion/blob work; None: chosen from die_px.
    :param suppress_shadows: leave out of the dice the felt darkened evenly (their shadows:
        a hard lamp's long shadow is otherwise taken for a second die, or swells a die's blob).
    :param felt_chroma: a pixel that changed less than ``diff_threshold`` (but by more than a
        third of it) whose chromaticity (B, G, R over their sum) lies farther than this from the
        felt's, at least half as bright as the felt, is a die's: the body of a die of nearly
        the felt's colour and brightness (green on green felt), of which only the pips and
        edges change the frame enough, differs from the felt in hue. 0.04 is above the felt's
        own spread on the shrunk work image (0.02-0.035 at the 99.9th percentile with the
        simulator's noisiest sensors); 0: off.
    :param felt_chroma_noise: a camera whose own noise moves the empty felt's hue (a compressed
        stream's blocks of colour, a noisy sensor in a dim room) would make the felt-hue test
        find dice where there are none, and a throw never settles. So while the table is idle
        the tracker measures the least bar at which the test finds nothing on the empty felt
        (every fourth frame, the last eight measures), and uses this many times the largest,
        if that is above ``felt_chroma``, for the next throw (0: never raised). The
        simulator's worlds and the second renderer's clips need no more than 0.02 (the bar
        stays 0.04); the clips as a webcam's JPEG stream at half size need up to 0.1.
    :param exposure_deadband: each frame is brought to the background's exposure (divided
        by the median ratio of its brightness to the background's over the area) where the
        two differ by more than this share, and by more than one and a half grey levels of
        the felt (on a dark felt a compressed stream's levels come and go by one): lamps that
        flicker with the mains (an LED lamp's 4% at 100 Hz seen at 60 fps changes every
        frame's brightness), a camera's auto-exposure. While the light moves, every frame is
        divided and capped alike (``_at_felt_exposure``). Without it a flicker of 4% is motion
        on every frame, and no throw settles. None: never.
    :param loose_mount_px: a camera on a loose mount moves the whole image by a fraction
        of a pixel from frame to frame, and every sharp edge of the felt is then motion on
        every frame: no throw settles. While idle the tracker measures each frame's shift
        and turn against the background on its strongest edges (``vision.mount_steady``),
        and when
        that shift changes from one measure to the next by more than this many pixels of
        the camera's image (the median of the last eight), every frame is moved back before
        it is compared. A rigid camera's change is at most 0.014 (the second renderer's
        clips, clean, dim, noisy or compressed), a mount moving the image by up to half a
        pixel 0.33-0.93. None: never measured.
    :param hand_birth_margin: a blob larger than a few dice is a hand (or an arm, an object),
        not dice. No die is first seen within this many die edges of one (this frame or the
        last) nor touching the image's border: pieces of a hand (its edge at the border, its
        shadow, fingers cut off by the threshold) are 1-5 die areas big; dice coming out of
        the hand are taken up once clear of it.
    :param hand_margin: a hand within this many die edges of a thrown die's centre has come
        to the dice (to pick them up): see ``hand_rest_s``.
    :param hand_rest_s: a hand that comes to the thrown dice after they have been still this
        long (before ``settle_s`` is over) ends the throw: it is observed on the last frame
        before the hand came near. A hand that comes to them sooner leaves the tracking as it
        was (the throw's own hand near a die still rolling), but if the dice then vanish under
        it, nothing is observed (not a phantom "thrown out of view").
    :param throw_speed: the fastest a thrown die flies, in die edges per second (1.5 m/s is
        94 for a 16 mm die): a die seen once, with no speed yet, is looked for that far from
        where it was on the next frame (at 30 fps over 3 edges, beyond the 2.5 a die with a
        speed is given around where that speed takes it).
    :param untangle_margin: two dice split from one blob are looked at again a frame later:
        their parts are exchanged from the split on if that straightens their two paths (the
        change of velocity over their last four sightings, summed) by more than this many die
        edges per frame interval (``inf``: never).
    :param energy_margin: two dice that each took a blob the other could have are exchanged
        if, as taken, they would together move faster than they did by more than this many
        die edges per frame interval and exchanged not (``ThrowTracker._keep_energy``;
        ``inf``: never).
    :param unmix_blob: a die that came out of a blob it shared with the other die, farther
        from the wall, is judged for a wall strike also from where the blob's centre and the
        other die's first sighting apart put it on the blob's last frame
        (``ThrowTracker._unmixed_path``).
    :param cocked: how resting dice are judged cocked (``vision.cocked.settings.CockedSettings``).
    :param wall: how a path shows a wall strike (``vision.throw_geometry.WallContact``).
    """

    expected_dice: int = 2
    diff_threshold: int = 30
    settle_s: float = 0.2
    lost_s: float = 0.4
    max_throw_s: float = 20.0
    max_gap_s: float = 0.5
    background_alpha: float = 0.05
    scale: int | None = None
    hand_margin: float = 1.6
    hand_rest_s: float = 0.1
    hand_birth_margin: float = 0.5
    suppress_shadows: bool = True
    felt_chroma: float = 0.04
    felt_chroma_noise: float = 1.25
    exposure_deadband: float | None = 0.01
    loose_mount_px: float | None = 0.15
    throw_speed: float = 100.0
    untangle_margin: float = 0.25
    energy_margin: float = 0.25
    unmix_blob: bool = True
    cocked: CockedSettings = field(default_factory=CockedSettings)
    wall: WallContact = field(default_factory=WallContact)


def choose_scale(width: int, height: int, die_px: float) -> int:
    """The largest of 8, 4, 2, 1 that divides the frame and leaves a die >= 7 px wide."""
    for s in (8, 4, 2):
        if width % s == 0 and height % s == 0 and die_px / s >= 7:
            return s
    return 1


class ThrowTracker:
    """Turns a stream of frames into one observation per throw.

    :param calibration: where the area, the back wall and the dice's size lie in the image.
    :param reader: reads faces at rest (``vision.dice.DiceReader``); None leaves values unread.
    :param settings: tuning; the defaults suit the table.
    :param annotate: draw the snapshot (the annotated rest frame) for each observation.
    """

    def __init__(
        self,
        calibration: Calibration,
        reader: Reader | None = None,
        settings: TrackerSettings | None = None,
        annotate: bool = True,
    ) -> None:
        # the calibration as given (points on the camera's image); ``calibration``: as the
        # frames the tracker works on show it (straightened, with ``lens_k1``, at the first frame)
        self.camera_calibration = calibration
        self.calibration = calibration
        self._lens = Lens(calibration.lens_k1) if calibration.lens_k1 else None
        self.reader = reader
        self.settings = settings or TrackerSettings()
        self.annotate = annotate
        self.state = IDLE
        self.frame_index = -1
        self._size: tuple[int, int] | None = None
        self._bg: np.ndarray | None = None  # float32 work-res background
        self._bg8: np.ndarray | None = None
        self._prev: np.ndarray | None = None  # previous work frame
        self._last_t: float | None = None
        self._prev_image: np.ndarray | None = None  # the last frame (a reference, not a copy)
        self._start_image: np.ndarray | None = None  # the frame before the throw's motion
        self._dt = 1 / 60
        self._tracks: list[DieTrack] = []
        # (frame, die, die): two dice split from one blob, judged again on the next frame
        self._splits: list[tuple[int, DieTrack, DieTrack]] = []
        self._next_id = 0
        self._rest_dice: list[tuple[float, float]] = []  # where dice lay after the last throw
        self._idle_mask: np.ndarray | None = None
        self._quiet = 0
        self._start_frame = 0
        self._start_time = 0.0
        self._motion_frames = 0
        # work-res distance to the nearest pixel of a hand (a blob bigger than a few dice), this
        # frame and the frame before; None: no hand in view
        self._hand_zone: np.ndarray | None = None
        self._hand_prev: np.ndarray | None = None
        # the last frame on which the thrown dice lay still with no hand near them:
        # (frame, work, time, index, least frames still)
        self._snap: tuple | None = None
        self._hand_came = False  # a hand came to the dice at rest before they could be read
        self._hand_seen = False  # a hand was in view during this throw
        # the felt's chromaticity and half its brightness (``_off_felt_chroma``), per throw
        self._felt_hue: tuple[np.ndarray, np.ndarray] | None = None
        # the felt-hue test's bar for this throw, and the empty felt's recent needs of it
        self._hue_bar = self.settings.felt_chroma
        self._hue_noise: deque[float] = deque(maxlen=8)
        # the frame where the light last moved past the exposure's band, and the gains since
        self._light_moved = -(10**9)
        self._gains: deque[float] = deque(maxlen=64)
        # a loose mount's shift of each frame, measured while idle and undone once it is loose
        self._steady: MountSteadier | None = None
        # where the area and the back wall lie (raises if the back wall is degenerate)
        self.geometry = TableGeometry(calibration, self.settings.wall)
        self._die = calibration.die_px
        self._view: CameraView | None = None

    # ----------------------------------------------------------------- set-up per frame size
    def _setup(self, frame: np.ndarray) -> None:
        h, w = frame.shape[:2]
        s = self.settings.scale or choose_scale(w, h, self._die)
        if w % s or h % s:
            raise ValueError(f"scale {s} does not divide the frame size {w}x{h}")
        self._s = s
        self._size = (w, h)
        if self._lens is not None:  # the area and the wall where the straightened frame shows them
            self.calibration = self._lens.straight_calibration(self.camera_calibration, (w, h))
            self.geometry = TableGeometry(self.calibration, self.settings.wall)
        self._wsize = (w // s, h // s)
        die_w = self._die / s
        self._die_area = die_w * die_w
        self._min_blob = max(2.0, 0.3 * self._die_area)
        self._big_blob = 5.0 * self._die_area  # a hand or an object, not dice
        # one die with its shadow and the sides a tilted camera sees covers up to ~1.8 die areas
        self._single_max = 2.1 * self._die_area
        self._two_min = 1.4 * self._die_area  # two dice overlapping cover at least this
        area_mask = np.zeros((h // s, w // s), np.uint8)
        poly = (np.array(self.calibration.area, np.float32) / s).round().astype(np.int32)
        cv2.fillPoly(area_mask, [poly], 255)
        grow = max(1, int(round(die_w)))
        self._area_mask = cv2.dilate(area_mask, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
        # where the exposure is measured: a grid of about 600 points of the area
        k = max(1, int(math.sqrt(cv2.countNonZero(area_mask) / 600.0)))
        self._exposure_grid = (k, area_mask[::k, ::k] > 0)
        self._start_px = max(2, int(0.25 * self._die_area))
        self._kernel = np.ones((3, 3), np.uint8)
        self._grow_die = np.ones((2 * grow + 1, 2 * grow + 1), np.uint8)
        if self.settings.loose_mount_px is not None:  # measured on the work image
            self._steady = MountSteadier(loose_px=self.settings.loose_mount_px / s)
        self._hand_reach = self.settings.hand_margin * die_w  # work px
        self._hand_birth = self.settings.hand_birth_margin * die_w
        # blobs are found on the shrunk copy: a resting die's centre there steps by up to
        # half its pixel from frame to frame (docs/replay.md), a quarter each sighting
        self.geometry.centre_px = 0.25 * s
        # how the camera looks at the felt (the top of a die at rest is seen wall-ward of
        # the felt beneath it: rule 6, ``TableGeometry.rests_at_wall``)
        try:
            self._view = CameraView.from_area(self.calibration.area, self.calibration.back_wall,
                                              (w, h))
        except CameraViewError:
            self._view = None

    def _steady_where(self) -> np.ndarray:
        """Where the felt's edges are measured: the area and its margin, never under a die at
        rest (the background has the felt there, the frame the die)."""
        if self._idle_mask is None:
            return self._area_mask
        return cv2.bitwise_and(self._area_mask, self._idle_mask)

    def _work(self, frame: np.ndarray) -> np.ndarray:
        s = self._s
        work = frame if s == 1 else cv2.resize(frame, self._wsize, interpolation=cv2.INTER_AREA)
        if self._lens is not None:
            work = self._lens.straighten(work, self._size, s)
        return work

    def _full(self, frame: np.ndarray) -> np.ndarray:
        """The full-resolution frame the tracker reads: straightened with a lens (a new
        array), else ``frame`` itself."""
        return frame if self._lens is None else self._lens.straighten(frame)

    def _at_felt_exposure(self, work: np.ndarray) -> np.ndarray:
        """The work frame at the background's exposure: divided by its gain where that moved
        past ``exposure_deadband``. While the light moves (a gain past the band in the last
        half second), every frame is divided, and capped at the sensor's limit seen at the
        brightest of those gains: a pixel a brighter frame drove to 255 was at least that
        bright, and only a common cap makes it compare alike on every frame."""
        gain, step = self._exposure(work)
        moved = abs(gain - 1.0) > max(self.settings.exposure_deadband, 1.5 * step)
        if moved:
            self._light_moved = self.frame_index
        elif self.frame_index - self._light_moved > 0.5 / max(self._dt, 1e-3):
            self._gains.clear()
            return work
        self._gains.append(gain)
        out = cv2.convertScaleAbs(work, alpha=1.0 / gain)
        cap = int(255.0 / max(1.0, max(self._gains)))
        return np.minimum(out, np.uint8(cap)) if cap < 255 else out

    def _exposure(self, work: np.ndarray) -> tuple[float, float]:
        """The work frame's brightness against the background's: the median, over a sparse
        grid of the area, of their ratio (the dice, their shadows and a hand cover far less
        than half the area, so the median is the felt's: the lamp's or the camera's gain);
        and the step one grey level of the felt makes in that ratio (on a dark felt a
        compressed stream's grey levels come and go by one: that is no change of light)."""
        k, inside = self._exposure_grid
        now = cv2.cvtColor(np.ascontiguousarray(work[::k, ::k]), cv2.COLOR_BGR2GRAY)[inside]
        felt = cv2.cvtColor(np.ascontiguousarray(self._bg8[::k, ::k]), cv2.COLOR_BGR2GRAY)[inside]
        felt = felt + np.float32(1.0)
        return (float(np.median((now + np.float32(1.0)) / felt)),
                1.0 / max(1.0, float(felt.mean())))

    def _diff(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return changed_pixels(a, b, self.settings.diff_threshold)

    # ----------------------------------------------------------------- public
    def reset(self) -> None:
        """Drop any throw in progress and forget the background (a new camera or table)."""
        self.state = IDLE
        self._bg = self._bg8 = self._prev = None
        self._felt_hue = None
        self._hue_noise.clear()
        self._light_moved, self._gains = -(10**9), deque(maxlen=64)
        self._steady = None
        self._prev_image = self._start_image = None
        self._tracks = []
        self._splits = []
        self._rest_dice = []
        self._idle_mask = None
        self._last_t = None
        self._hand_zone = self._hand_prev = None
        self._border_prev: list[tuple[float, float]] = []
        self._snap = None

    @property
    def mount_loose(self) -> bool:
        """The camera's mount was found loose (``loose_mount_px``): every frame is moved back
        before it is compared. The table says so once (its log): fix the camera rigidly."""
        return self._steady is not None and self._steady.loose

    def feed(self, timestamp: float, frame: np.ndarray) -> ThrowObservation | None:
        """Take the next frame (BGR, full resolution); return an observation when a throw ends.

        :param timestamp: seconds, increasing (the camera's clock or the video's).
        :param frame: the image, HxWx3 uint8 BGR, the same size as the calibration's. Kept
            (not copied) while the dice rest, to read them on it if a hand comes: a source must
            give a new array per frame, never write into one it gave before.
        """
        if frame is None or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise ValueError("feed() needs a BGR image, HxWx3 uint8")
        self.frame_index += 1
        if self._size is None or self._size != (frame.shape[1], frame.shape[0]):
            if self._size is not None:
                self.reset()
            self._setup(frame)
        work = self._work(frame)
        if self._last_t is not None:
            gap = timestamp - self._last_t
            if gap > self.settings.max_gap_s:
                # A camera that came back: the throw in progress cannot be judged.
                self.state = IDLE
                self._tracks = []
                self._prev = None
            elif gap > 0:
                self._dt = 0.8 * self._dt + 0.2 * gap
        self._last_t = timestamp
        if self._bg is None:
            self._bg = work.astype(np.float32)
            self._bg8 = work.copy()
            self._prev, self._prev_image = work, frame
            return None
        if self._steady is not None:
            if self.state == IDLE and (not self._steady.learnt or self.frame_index % 64 == 0):
                self._steady.learn(self._bg8, self._steady_where())  # the felt's edges as learnt
            was_loose = self._steady.loose
            work = self._steady.steady(work, self.state == IDLE, self.frame_index % 2 == 0)
            if self._steady.loose and not was_loose:
                # the felt learnt so far is the mean of frames shifted every way: blurred at
                # each edge, it differs from every steadied frame there. Start it anew.
                self._bg, self._bg8 = work.astype(np.float32), work.copy()
                self._steady.learn(self._bg8, self._steady_where())
                self._prev = None
        if self.settings.exposure_deadband is not None:
            work = self._at_felt_exposure(work)
        if self._prev is None:
            self._prev, self._prev_image = work, frame
            return None
        motion = self._diff(work, self._prev)
        self._prev = work
        if self.state == IDLE:
            self._idle(work, motion, timestamp)
            if self.state == THROW:  # the frame before the motion: the felt as it was
                last = self._prev_image if self._prev_image is not None else frame
                self._start_image = last.copy() if self._lens is None else self._full(last)
            self._prev_image = frame
            return None
        self._prev_image = frame
        return self._throw(frame, work, motion, timestamp)

    # ----------------------------------------------------------------- idle
    def _idle(self, work: np.ndarray, motion: np.ndarray, t: float) -> None:
        st = self.settings
        moving = cv2.bitwise_and(motion, self._area_mask)
        if cv2.countNonZero(moving) >= self._start_px and self._a_thing_moves(moving):
            self.state = THROW
            self._tracks = []
            self._hand_zone = self._hand_prev = None
            self._border_prev = []
            self._snap = None
            self._hand_came = False
            self._hand_seen = False  # a hand was in view during this throw
            self._start_frame = self.frame_index
            self._start_time = t
            self._felt_hue = None
            self._hue_bar = max(st.felt_chroma,
                                st.felt_chroma_noise * max(self._hue_noise, default=0.0))
            self._quiet = 0
            return
        # Follow slow changes of the felt (light), never under a die at rest: a die must stay
        # foreground so the next throw can tell it did not move.
        if self._idle_mask is None:
            self._idle_mask = np.full(work.shape[:2], 255, np.uint8)
            r = self._die / self._s
            for x, y in self._rest_dice:
                cv2.circle(
                    self._idle_mask,
                    (int(x / self._s), int(y / self._s)),
                    int(r * 1.2) + 1,
                    0,
                    -1,
                )
        if self.frame_index % 2 == 0:  # half the rate is plenty and halves the cost
            # never what moves (dice coming in over the image's edge, outside the area, before
            # the throw begins): learnt into the felt, they would leave their ghost there
            still = cv2.bitwise_and(self._idle_mask, cv2.bitwise_not(
                cv2.dilate(motion, self._grow_die)))
            cv2.accumulateWeighted(work, self._bg, 2 * self.settings.background_alpha, still)
            self._bg8 = cv2.convertScaleAbs(self._bg)
        if st.felt_chroma > 0 and st.felt_chroma_noise > 0 and self.frame_index % 4 == 1:
            self._hue_noise.append(self._felt_hue_noise(work))

    def _a_thing_moves(self, moving: np.ndarray) -> bool:
        """The motion that would start a throw is a thing moving, not the camera's noise nor
        the camera moving: a patch (half the pixels that start a throw survive one erosion),
        as a die, a hand, or dice picked up are; or, for a die whose body is the felt's colour
        (only its pips change the frame enough: dots the erosion removes), gathered: half
        those pixels, and at least a third of all that moved, within one square two dice
        wide, counting only the motion off the felt's own sharp edges. A compressed stream's
        blocks flicker a pixel here and there, most along those edges; a trembling mount
        moves every edge at once in thin lines, which gather where two lines meet."""
        if cv2.countNonZero(cv2.erode(moving, self._kernel)) >= self._start_px // 2:
            return True
        moving = cv2.bitwise_and(moving, self._off_felt_edges())
        side = 2 * int(round(self._die / self._s)) + 1
        near = float(cv2.boxFilter((moving > 0).astype(np.float32), -1, (side, side),
                                   normalize=False).max())
        return near >= max(self._start_px // 2, cv2.countNonZero(moving) / 3.0)

    def _off_felt_edges(self) -> np.ndarray:
        """255 away from the background's sharp edges: where its grey level changes by more
        than 10 a work pixel (a shift of a pixel there changes B + G + R by the change bar),
        grown by a pixel."""
        grey = cv2.cvtColor(self._bg8, cv2.COLOR_BGR2GRAY)
        gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
        edges = ((gx * gx + gy * gy) > (10.0 * 8.0) ** 2).astype(np.uint8) * 255  # Sobel: 8x
        return cv2.bitwise_not(cv2.dilate(edges, self._kernel))

    # ----------------------------------------------------------------- throw
    def _throw(
        self, frame: np.ndarray, work: np.ndarray, motion: np.ndarray, t: float
    ) -> ThrowObservation | None:
        st = self.settings
        change = cv2.transform(cv2.absdiff(work, self._bg8), _SUM_BGR)  # uint8, saturating
        fg = cv2.threshold(change, st.diff_threshold, 255, cv2.THRESH_BINARY)[1]
        if self.settings.suppress_shadows:
            on = np.nonzero(fg)  # judged where something changed only: a small share
            if len(on[0]):
                shadow = felt_in_shadow(work[on][None], self._bg8[on][None])[0]
                fg[on[0][shadow], on[1][shadow]] = 0
        # a die whose colour is near the felt's shows as pips and edges: join the pieces
        if st.felt_chroma > 0:
            fg |= self._off_felt_chroma(work, change)
        fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, self._kernel)
        n, labels, stats, cents = cv2.connectedComponentsWithStats(fg, connectivity=8)
        self._hand_prev = self._hand_zone
        self._hand_zone = hand_zone(labels, stats, n, self._big_blob)
        if self._hand_zone is not None:
            self._hand_seen = True
        self._associate(labels, stats, cents, n, t)
        settle_frames = max(3, int(round(st.settle_s / max(self._dt, 1e-3))))
        lost_frames = max(3, int(round(st.lost_s / max(self._dt, 1e-3))))
        # Stillness per die: its centre did not move and its look did not change (a die spinning
        # on a corner keeps its centre but changes its look).
        for tr in self._tracks:
            if tr.gone:
                continue
            if tr.frames[-1] != self.frame_index:
                tr.still = 0
                if self.frame_index - tr.frames[-1] > lost_frames:
                    tr.gone = True
                continue
            x, y, w, h = tr.bbox
            changed = cv2.countNonZero(motion[y : y + h, x : x + w])
            step = 0.0
            if len(tr.xs) >= 2:
                step = math.hypot(tr.xs[-1] - tr.xs[-2], tr.ys[-1] - tr.ys[-2])
            if step < 0.1 * self._die + 0.5 * self._s and changed <= 0.08 * self._die_area:
                tr.still += 1
            else:
                tr.still = 0
            if not tr.moved and len(tr.xs) >= 2:
                if math.hypot(tr.xs[-1] - tr.xs[0], tr.ys[-1] - tr.ys[0]) > 0.5 * self._die:
                    tr.moved = True
        area_motion = cv2.countNonZero(cv2.bitwise_and(motion, self._area_mask))
        self._quiet = self._quiet + 1 if area_motion < self._start_px else 0
        live = [tr for tr in self._tracks if not tr.gone]
        if self.frame_index - self._start_frame > st.max_throw_s / max(self._dt, 1e-3):
            return self._drop()
        thrown = [tr for tr in live if (tr.moved or tr.came_in) and not tr.was_resting]
        if thrown and hand_near(self._hand_zone, live, self._s, self._hand_reach):
            # A hand came to the dice (to pick them up) before they were read: read them on
            # the last frame before it came near, if they lay still long enough by then; a
            # hand near dice still flying (the throw's own hand) changes nothing.
            rest_frames = max(2, int(round(st.hand_rest_s / max(self._dt, 1e-3))))
            snap = self._snap
            if snap is not None and snap[4] >= rest_frames:
                return self._observe(snap[0], snap[1], snap[2], snap[3])
            if all(tr.still >= 1 for tr in thrown):
                # at rest too briefly to be read before the hand came: if it takes them,
                # there is nothing to observe (no phantom "thrown out of view")
                self._hand_came = True
        elif thrown and all(tr.still >= 1 for tr in live):
            least = min(tr.still for tr in live)
            self._snap = (frame, work, t, self.frame_index, least)
        else:
            self._snap = None
        settled = bool(live) and all(tr.still >= settle_frames for tr in live)
        if settled and self._quiet >= min(settle_frames, 3):
            if not any(tr.moved or tr.came_in for tr in self._tracks if len(tr.xs) >= 3):
                return self._drop()
            return self._observe(frame, work, t)
        if not live and self._quiet >= settle_frames:
            if not self._hand_came and any(
                tr.moved and len(tr.xs) >= 3 and not tr.was_resting for tr in self._tracks
            ):
                return self._observe(frame, work, t)  # every die thrown out of view
            # the dice were picked up (the dice of the last throw moved), or only a hand moved
            return self._drop()
        return None

    def _hue_off_felt(self, work: np.ndarray, change: np.ndarray, felt_hue) -> tuple:
        """The pixels the felt-hue test judges (changed by a third of ``diff_threshold`` to
        it, at least half as bright as the felt ``felt_hue``: its chromaticity and half its
        brightness), as ``np.nonzero`` gives them, and the square of each one's chromaticity's
        distance from the felt's."""
        hue, half = felt_hue
        thr = self.settings.diff_threshold
        on = np.nonzero((change > thr // 3) & (change <= thr))
        if not len(on[0]):
            return on, np.zeros(0, np.float32)
        p = work[on].astype(np.float32)
        psum = p.sum(axis=1) + 1.0
        d = p / psum[:, None] - hue[on]
        d2 = (d * d).sum(axis=1)
        d2[psum <= half[on]] = 0.0  # darker pixels' hue is the sensor's noise: never a die's
        return on, d2

    @staticmethod
    def _felt_hue_of(background: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        f = background.astype(np.float32)
        fsum = f.sum(axis=2) + 1.0
        return f / fsum[..., None], 0.5 * fsum

    def _felt_hue_noise(self, work: np.ndarray) -> float:
        """The least bar at which the felt-hue test finds nothing on the empty felt of this
        idle frame (the area, away from the dice at rest): a pixel it finds must have its 3x3
        neighbours found too (lone pixels are left out), so the bar needed is the largest
        over pixels of the least distance in each one's neighbourhood."""
        change = cv2.transform(cv2.absdiff(work, self._bg8), _SUM_BGR)
        on, d2 = self._hue_off_felt(work, change, self._felt_hue_of(self._bg8))
        if not len(d2):
            return 0.0
        dist = np.zeros(change.shape, np.float32)
        dist[on] = np.sqrt(d2)
        keep = self._area_mask if self._idle_mask is None else self._area_mask & self._idle_mask
        return float(cv2.erode(dist, self._kernel).max(initial=0.0, where=keep > 0))

    def _off_felt_chroma(self, work: np.ndarray, change: np.ndarray) -> np.ndarray:
        """255 where ``work`` changed too little to count (``change``: the sum over B, G, R of
        |work - felt|, between a third of ``diff_threshold`` and it) but has another
        chromaticity than the background felt (by more than the bar: ``felt_chroma``, or above the camera's own noise, ``felt_chroma_noise``), keeping at least
        half its brightness (darker pixels' hue is the sensor's noise); lone pixels left out.
        That is the body of a die of nearly the felt's colour; what changed more is judged by
        the change and shadow tests alone (a die's shaded sides and blur there would swell a
        blob past one die's size)."""
        if self._felt_hue is None:  # the felt as learnt before this throw (or healed since)
            self._felt_hue = self._felt_hue_of(self._bg8)
        out = np.zeros(change.shape, np.uint8)
        on, d2 = self._hue_off_felt(work, change, self._felt_hue)
        if len(d2):
            off = d2 > self._hue_bar ** 2
            out[on[0][off], on[1][off]] = 255
        return cv2.morphologyEx(out, cv2.MORPH_OPEN, self._kernel)

    def _drop(self) -> None:
        self.state = IDLE
        keep = [tr for tr in self._tracks if not tr.gone and tr.still > 0]
        if self._prev is not None:
            for tr in list(keep):
                if not tr.moved and self._is_ghost(tr, self._prev):
                    self._heal(tr, self._prev)
                    keep.remove(tr)
        self._rest_dice = [tr.last for tr in keep]
        self._idle_mask = None
        self._tracks = []
        return None

    def _associate(self, labels, stats, cents, n: int, t: float) -> None:
        """Give this frame's blobs to the dice: each die claims the blob where its motion says
        it is (``_claim_blobs``), a claimed blob too big for one die brings out a second die
        that flew with it (``_twin``), each claimed blob moves its dice (``_follow``: a blob of
        dice that touch is split between them), the blobs no die claimed are dice coming into
        view (``_take_up``), blips are forgotten (``_forget_blips``), and two dice split from
        one blob on the frame before are looked at again with where each went (``_untangle``)."""
        blobs = self._die_blobs(stats, n)
        last_boxes = {tr.ident: tr.bbox for tr in self._tracks
                      if not tr.gone and tr.frames and tr.frames[-1] == self.frame_index - 1}
        claims, drop = self._claim_blobs(blobs, stats, cents, t)
        live = sum(1 for tr in self._tracks if not tr.gone)
        for b, trs in claims.items():
            trs, live = self._twin(b, trs, stats, live)
            self._follow(b, trs, labels, stats, cents, t, drop)
        self._take_up(blobs, claims, labels, stats, cents, t, last_boxes)
        self._forget_blips(drop)
        self._untangle()

    def _untangle(self) -> None:
        """Two dice split from one blob on the frame before, looked at again with this frame's
        sightings: if exchanging their parts from the split on straightens their paths, each
        track was following the other's die. A die keeps its velocity through a crossing (one
        flies over the other), while dice that collide both change theirs, so the split frame's
        parts, taken by where each die was and was heading, are weighed again by where each
        die went next (docs/replay.md, "How a wall strike is decided")."""
        margin = self.settings.untangle_margin * self._die
        splits, self._splits = self._splits, []
        for f, a, b in splits:
            if f == self.frame_index:
                self._splits.append((f, a, b))  # split on this frame: judged on the next
                continue
            if f != self.frame_index - 1 or a.gone or b.gone:
                continue
            now = [a.bend(), b.bend()]
            if None in now or a.frames[-2] != f or b.frames[-2] != f:
                continue
            if swapped_bend(a, b, 2) < now[0] + now[1] - margin:
                a.swap_last(b, 2)

    def _die_blobs(self, stats, n: int) -> list[int]:
        """The blobs of a die's size (not noise, not a hand)."""
        blobs = []
        for i in range(1, n):
            a = stats[i, cv2.CC_STAT_AREA]
            if a < self._min_blob or a > self._big_blob:
                continue
            blobs.append(i)
        return blobs

    def _claim_blobs(self, blobs: list[int], stats, cents, t: float):
        """Which dice each blob shows (blob -> dice), and the dice found to be another die
        seen twice (their idents, to drop)."""
        s = self._s
        gate = 2.5 * self._die
        claims: dict[int, list[DieTrack]] = {}
        drop: set[int] = set()
        # Each die takes the nearest blob to where its motion says it should be, one die per
        # blob first (dice crossing paths keep their own blobs); a die left without one shares
        # the blob it is predicted inside of (dice that touch), or coasts.
        active = [
            tr for tr in self._tracks if not (tr.gone and self.frame_index - tr.frames[-1] > 1)
        ]
        preds = [self._predict(tr, t) for tr in active]
        # cost of each (die, blob) pair: how far the blob's centre is from the prediction
        cost: dict[tuple[int, int], float] = {}
        for k, tr in enumerate(active):
            px, py = preds[k]
            vx, vy = tr.velocity()
            g = gate + 0.5 * math.hypot(vx, vy) * self._dt
            if len(tr.xs) < 2:  # no speed yet: as far as a thrown die flies in a frame
                g = max(g, self.settings.throw_speed * self._die * self._dt)
            for b in blobs:
                d_c = math.hypot(cents[b][0] * s - px, cents[b][1] * s - py)
                if d_c < g:
                    cost[k, b] = d_c
        # a die left without a blob costs more than any blob within its reach: as many dice
        # as can be are followed (two fast dice first seen once, with no speed yet, must not
        # leave one without a blob because the other's nearest blob is the first's)
        miss = 1.0 + len(active) * max(cost.values(), default=gate)
        claims_k = self._assign(len(active), blobs, cost, miss)
        self._keep_energy(active, claims_k, cost, cents, t)
        taken_t = set(claims_k)
        for k, b in claims_k.items():
            claims.setdefault(b, []).append(active[k])
        pad = 0.5 * self._die
        for k, tr in enumerate(active):
            if k in taken_t:
                continue
            # share a blob big enough for two that it is predicted in, or that holds its last
            # position (the predicted speed of a die just split from another is unreliable)
            best, best_d = None, None
            for b in claims:
                bx, by, bw, bh, ba = stats[b]
                if ba < self._single_max and not (
                    # two dice that overlap (one leaning on the other) make a smaller blob: the
                    # die seen apart a moment ago keeps its share
                    ba >= self._two_min
                    and self.frame_index - tr.frames[-1] <= 2
                    and all(
                        math.hypot(o.xs[-1] - tr.xs[-1], o.ys[-1] - tr.ys[-1]) >= 0.9 * self._die
                        for o in claims[b]
                    )
                ):
                    continue
                x0, y0, x1, y1 = bx * s - pad, by * s - pad, (bx + bw) * s + pad, (by + bh) * s + pad
                for qx, qy in (preds[k], tr.last):
                    if x0 <= qx <= x1 and y0 <= qy <= y1:
                        d = math.hypot(cents[b][0] * s - qx, cents[b][1] * s - qy)
                        if best_d is None or d < best_d:
                            best, best_d = b, d
            if best is not None:
                claims[best].append(tr)
        # a die without a blob that sits on another die's blob is that die seen twice
        for k, tr in enumerate(active):
            if k in taken_t or any(tr in trs for trs in claims.values()):
                continue
            for b, trs in claims.items():
                if math.hypot(cents[b][0] * s - tr.xs[-1], cents[b][1] * s - tr.ys[-1]) < 0.6 * self._die:
                    if len(trs[0].xs) >= len(tr.xs):
                        drop.add(tr.ident)
                    break
        return claims, drop

    def _keep_energy(self, active: list[DieTrack], claims_k: dict[int, int], cost: dict,
                     cents, t: float) -> None:
        """Two dice that each took a blob the other could have taken exchange them if, as
        taken, the two would move faster than they did (their speeds' root sum of squares, a
        frame interval's travel, against each die's faster of its last two intervals) by more
        than ``energy_margin`` while exchanged they would not: nothing on the table gives a
        thrown die speed (dice flying past each other keep theirs, dice that collide, the
        wall and the felt take it), and two dice that meet and stop, each taken to have gone
        on to where the other stopped, would both speed up."""
        margin = self.settings.energy_margin * self._die
        if not math.isfinite(margin):
            return
        s = self._s

        def fastest(tr: DieTrack) -> float | None:  # px per frame interval
            if len(tr.xs) < 3 or not tr.moved or tr.frames[-1] != self.frame_index - 1:
                return None
            if tr.shared_until >= self.frame_index - 3:  # a shared blob's parts move apart
                return None
            return max(math.hypot(tr.xs[j] - tr.xs[j - 1], tr.ys[j] - tr.ys[j - 1])
                       / (tr.times[j] - tr.times[j - 1]) for j in (-1, -2)) * self._dt

        def step(tr: DieTrack, b: int) -> float:
            return (math.hypot(cents[b][0] * s - tr.xs[-1], cents[b][1] * s - tr.ys[-1])
                    / (t - tr.times[-1]) * self._dt)

        for k1, k2 in itertools.combinations(sorted(claims_k), 2):
            b1, b2 = claims_k[k1], claims_k[k2]
            if (k1, b2) not in cost or (k2, b1) not in cost:
                continue
            a, b = active[k1], active[k2]
            fa, fb = fastest(a), fastest(b)
            if fa is None or fb is None:
                continue
            was = math.hypot(fa, fb) + margin
            if (math.hypot(step(a, b1), step(b, b2)) > was
                    and math.hypot(step(a, b2), step(b, b1)) <= was):
                claims_k[k1], claims_k[k2] = b2, b1

    def _twin(self, b: int, trs: list[DieTrack], stats, live: int):
        """The dice of blob ``b``, with a second die if it is too big for its one (and the
        count of live dice)."""
        a = stats[b][4]
        if len(trs) == 1 and a >= self._single_max and live < self.settings.expected_dice:
            # Too big for one die: two dice that flew together until now. The second one
            # shares the first's path so far (a twin that turns out to be one blurred die
            # is dropped as a duplicate once the blob shrinks).
            tr0 = trs[0]
            twin = DieTrack(self._next_id)
            self._next_id += 1
            twin.frames, twin.times = list(tr0.frames), list(tr0.times)
            twin.xs, twin.ys = list(tr0.xs), list(tr0.ys)
            twin.moved, twin.was_resting = tr0.moved, tr0.was_resting
            twin.share(tr0, tr0.frames[-1])
            self._tracks.append(twin)
            live += 1
            trs = [tr0, twin]
        return trs, live

    def _follow(self, b: int, trs: list[DieTrack], labels, stats, cents, t: float,
                drop: set[int]) -> None:
        """Move the dice ``trs`` to what blob ``b`` shows of them."""
        s = self._s
        x, y, w, h, a = stats[b]
        if len(trs) == 1:
            cx, cy = cents[b]
            trs[0].add(self.frame_index, t, (cx + 0.5) * s - 0.5, (cy + 0.5) * s - 0.5)
            trs[0].bbox = (x, y, w, h)
            trs[0].area = float(a)
            return
        apart = all(
            math.hypot(p.xs[-1] - q.xs[-1], p.ys[-1] - q.ys[-1]) >= 0.9 * self._die
            for p, q in itertools.combinations(trs, 2)
        )
        if a < self._single_max and not (a >= self._two_min and apart):
            # Room for one die only: a die seen in pieces a frame ago (a duplicate track),
            # or one die hiding the other. The oldest track takes it; a duplicate goes.
            cx, cy = cents[b]
            bx, by = (cx + 0.5) * s - 0.5, (cy + 0.5) * s - 0.5
            keep = max(trs, key=lambda tr: len(tr.xs))
            keep.add(self.frame_index, t, bx, by)
            keep.bbox = (x, y, w, h)
            keep.area = float(a)
            for tr in trs:
                px, py = self._predict(tr, t)
                if tr is not keep and math.hypot(px - bx, py - by) < 0.8 * self._die:
                    drop.add(tr.ident)
            return
        # Dice that touch or overlap share one blob: split its pixels between them.
        ys, xs = np.nonzero(labels[y : y + h, x : x + w] == b)
        pts = np.stack([xs + x, ys + y], axis=1).astype(np.float32)
        # as many parts as the blob has room for dice (a shadow's track gets none)
        n_parts = int(min(len(trs), max(2, round(a / (0.8 * self._single_max)))))
        order = sorted(
            trs,
            key=lambda tr: math.hypot(
                self._predict(tr, t)[0] / s - (x + w / 2), self._predict(tr, t)[1] / s - (y + h / 2)
            ),
        )
        centres = np.array(
            [[self._predict(tr, t)[0] / s, self._predict(tr, t)[1] / s] for tr in order[:n_parts]],
            np.float32,
        )
        if n_parts == 2 and np.hypot(*(centres[0] - centres[1])) < 0.3 * self._die / s:
            # the same prediction for both: start from the two ends of the blob's long axis
            mean = pts.mean(axis=0)
            cov = np.cov((pts - mean).T) if len(pts) > 2 else np.eye(2)
            evals, evecs = np.linalg.eigh(cov)
            axis = evecs[:, int(np.argmax(evals))]
            half = 0.5 * self._die / s
            centres = np.array([mean - half * axis, mean + half * axis], np.float32)
        for _ in range(4):  # k-means started from the predictions
            d2 = ((pts[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
            lab = d2.argmin(axis=1)
            for k in range(n_parts):
                sel = pts[lab == k]
                if len(sel):
                    centres[k] = sel.mean(axis=0)
        # which part is which die: the least total distance to where each die was and
        # where it was heading (dice colliding in one blob must not swap)
        parts = [((c[0] + 0.5) * s - 0.5, (c[1] + 0.5) * s - 0.5) for c in centres]
        best_perm, best_cost = None, math.inf
        for perm in itertools.permutations(range(len(trs)), n_parts):
            total = 0.0
            for j, k in enumerate(perm):
                tr = trs[k]
                px, py = parts[j]
                qx, qy = self._predict(tr, t)
                total += math.hypot(px - qx, py - qy) + math.hypot(px - tr.xs[-1], py - tr.ys[-1])
            if total < best_cost:
                best_perm, best_cost = perm, total
        for j, k in enumerate(best_perm):
            tr = trs[k]
            sel = pts[lab == j]
            if not len(sel):
                continue
            tr.add(self.frame_index, t, parts[j][0], parts[j][1])
            x0, y0 = sel.min(axis=0)
            x1, y1 = sel.max(axis=0)
            tr.bbox = (int(x0), int(y0), int(x1 - x0 + 1), int(y1 - y0 + 1))
            tr.area = float(len(sel))
            tr.gone = False
        if len(trs) == 2 and all(tr.frames[-1] == self.frame_index for tr in trs):
            self._splits.append((self.frame_index, trs[0], trs[1]))

    def _predict(self, tr: DieTrack, t: float) -> tuple[float, float]:
        """Where ``tr`` should be at ``t``: on at its speed, but never through the back wall
        (a die heading at it stops there, half an edge out, until it is seen leaving: how fast
        it comes back the wall's give decides, 0.3-0.95 of what it took). A die not yet seen
        half an edge from where it was first seen (``DieTrack.moved``) lies where it is: its
        speed is its centre's jitter, or what splitting a blob it shares with a die that
        struck it made of its centre."""
        x, y = tr.last
        if not tr.moved:
            return x, y
        return self.geometry.stopped_by_wall(x, y, *tr.predict(t))

    def _take_up(self, blobs: list[int], claims: dict, labels, stats, cents, t: float,
                 last_boxes: dict[int, tuple]) -> None:
        """The blobs no die claimed: a die that briefly left the view comes back, or a new
        die (one coming into view, out from under the hand, or where one lay, or out of the
        blob of a die seen the frame before, ``last_boxes``: its ident -> work-res box)."""
        s = self._s
        # A blob no die claimed: a die coming into view (again) or one more die.
        border_now: list[tuple[float, float]] = []  # blobs kept from birth by the border
        for b in blobs:
            if b in claims:
                continue
            cx, cy = cents[b]
            x, y, w, h, a = stats[b]
            if near_hand(
                labels, b, (x, y, w, h), self._hand_zone, self._hand_prev, self._hand_birth
            ):
                if touches_border((x, y, w, h), labels.shape):
                    border_now.append(((cx + 0.5) * s - 0.5, (cy + 0.5) * s - 0.5))
                continue  # a hand's piece, or a die not yet clear of the hand or the border
            bx, by = (cx + 0.5) * s - 0.5, (cy + 0.5) * s - 0.5
            lost = []
            for tr in self._tracks:
                unseen = self.frame_index - tr.frames[-1]
                if unseen < 3 or not tr.moved or len(tr.xs) < 3:
                    continue
                # it can only come back near the path it was on
                vx, vy = tr.velocity()
                span = unseen * self._dt
                reach = 2 * self._die + 0.5 * math.hypot(vx, vy) * span
                ahead = self._predict(tr, tr.times[-1] + span)
                if segment_distance((bx, by), tr.last, ahead) <= reach:
                    lost.append(tr)
            if lost:  # a die that briefly left the view comes back
                tr = max(lost, key=lambda tr: tr.frames[-1])
                tr.gone = False
            else:
                tr = DieTrack(self._next_id)
                self._next_id += 1
                self._tracks.append(tr)
                # where a die lay after the last throw: it may be lying there still
                tr.was_resting = any(
                    math.hypot(cx * s - rx, cy * s - ry) < 0.5 * self._die
                    for rx, ry in self._rest_dice
                )
                # a blob touched the border next to it a frame ago: it came into the view
                tr.entered = not tr.was_resting and any(
                    math.hypot(bx - ex, by - ey) < 1.5 * self._die for ex, ey in self._border_prev
                )
                tr.from_hand = not tr.was_resting and near_hand(
                    labels,
                    b,
                    (x, y, w, h),
                    self._hand_zone,
                    self._hand_prev,
                    self._hand_birth,
                    self._hand_reach,
                )
                host = self._blob_it_came_out_of(cx, cy, last_boxes)
                if host is not None and not tr.was_resting:
                    tr.share(host, self.frame_index - 1)
            tr.add(self.frame_index, t, (cx + 0.5) * s - 0.5, (cy + 0.5) * s - 0.5)
            tr.bbox = (x, y, w, h)
            tr.area = float(a)
        self._border_prev = border_now

    def _blob_it_came_out_of(self, cx: float, cy: float, last_boxes: dict[int, tuple]):
        """The die whose blob, the frame before, covered a new die's centre (work-res ``cx``,
        ``cy``): the two flew as one blob until now. None if no such die."""
        pad = 0.25 * self._die / self._s
        for tr in self._tracks:
            box = last_boxes.get(tr.ident)
            if box is None:
                continue
            x, y, w, h = box
            if x - pad <= cx <= x + w + pad and y - pad <= cy <= y + h + pad:
                return tr
        return None

    def _forget_blips(self, drop: set[int]) -> None:
        """Forget the dice to ``drop`` and blips (noise, a shadow's edge) that were seen
        once or twice and vanished."""
        self._tracks = [
            tr
            for tr in self._tracks
            if tr.ident not in drop and (len(tr.xs) > 2 or self.frame_index - tr.frames[-1] <= 2)
        ]

    @staticmethod
    def _assign(n_tracks: int, blobs: list[int], cost: dict, miss: float) -> dict[int, int]:
        """Die -> blob, one blob per die, least total distance (a die may take none, at the
        cost ``miss``). Exhaustive for the few dice of a throw, greedy beyond."""
        cand = [[b for b in blobs if (k, b) in cost] for k in range(n_tracks)]
        combos = 1
        for c in cand:
            combos *= len(c) + 1
        if combos > 2000:
            out: dict[int, int] = {}
            used: set[int] = set()
            for (k, b), _ in sorted(cost.items(), key=lambda kv: kv[1]):
                if k not in out and b not in used:
                    out[k] = b
                    used.add(b)
            return out
        best: tuple[float, dict[int, int]] = (math.inf, {})

        def walk(k: int, used: frozenset, total: float, chosen: dict[int, int]) -> None:
            nonlocal best
            if total >= best[0]:
                return
            if k == n_tracks:
                best = (total, dict(chosen))
                return
            for b in cand[k]:
                if b not in used:
                    chosen[k] = b
                    walk(k + 1, used | {b}, total + cost[k, b], chosen)
                    del chosen[k]
            walk(k + 1, used, total + miss, chosen)

        walk(0, frozenset(), 0.0, {})
        return best[1]

    # ----------------------------------------------------------------- geometry
    def hit_wall(self, times: list[float], xs: list[float], ys: list[float],
                 others: list[DieTrack] = ()) -> bool:
        """Whether a path touched the back wall, the other dice's paths ``others`` beside it
        (see ``TableGeometry.hit_wall``)."""
        paths = [(o.times, o.xs, o.ys) for o in others]
        return self.geometry.hit_wall(times, xs, ys, paths)

    def _own_path(self, tr: DieTrack, dice: list[DieTrack]):
        """The sightings (times, xs, ys) that show where ``tr`` itself went. While its blob
        held another die as well (``DieTrack.shared_until``), the blob's path is the pair's;
        if, once apart, the other die lay between it and the wall (nearer by
        ``WallContact.other_nearer``), the blob's wall contact was the other's: those
        sightings are left out."""
        partner = next((o for o in dice if o.ident == tr.shared_with), None)
        after = next((k for k, f in enumerate(tr.frames) if f > tr.shared_until), None)
        if partner is None or after is None or after == 0 or not partner.times:
            return tr.times, tr.xs, tr.ys
        t = tr.times[after]
        j = min(range(len(partner.times)), key=lambda m: abs(partner.times[m] - t))
        mine, _ = self.geometry.wall_distance(tr.xs[after], tr.ys[after])
        theirs, _ = self.geometry.wall_distance(partner.xs[j], partner.ys[j])
        if theirs > mine - self.settings.wall.other_nearer * self._die:
            return tr.times, tr.xs, tr.ys
        return tr.times[after:], tr.xs[after:], tr.ys[after:]

    def _unmixed_path(self, tr: DieTrack, dice: list[DieTrack]):
        """The path of a die that shared a blob with another die up to a frame and came out of
        it farther from the wall (its sightings while shared are left out of ``_own_path``),
        with its place on the blob's last frame as the blob and the other die's first sighting
        apart give it: the blob's centre is the pair's mean, so this die lay at twice the
        blob's centre less the other's (that one's first sighting apart, moved back one frame
        interval at its speed then). Two dice that strike the wall side by side at 30 fps are
        one blurred blob there; the one leaving fast is first made out apart two or three
        edges out, and its own path traced back at the speed it leaves falls short of the wall
        (dev 84226). Empty for the others, or with ``TrackerSettings.unmix_blob`` off."""
        none: tuple[list, list, list] = ([], [], [])
        if not self.settings.unmix_blob or tr.shared_with is None:
            return none
        partner = next((o for o in dice if o.ident == tr.shared_with), None)
        if partner is None or tr.shared_until not in tr.frames:
            return none
        k = tr.frames.index(tr.shared_until)
        mine = [m for m, f in enumerate(tr.frames) if f > tr.shared_until]
        theirs = [m for m, f in enumerate(partner.frames) if f > tr.shared_until]
        if len(mine) < 2 or len(theirs) < 2:
            return none
        a, b = theirs[0], theirs[1]
        if partner.frames[a] != tr.shared_until + 1 or partner.frames[b] != partner.frames[a] + 1:
            return none
        # the other die where it was on the blob's last frame: its first sighting apart, moved
        # back at the speed of its first step apart
        ox = 2 * partner.xs[a] - partner.xs[b]
        oy = 2 * partner.ys[a] - partner.ys[b]
        x, y = 2 * tr.xs[k] - ox, 2 * tr.ys[k] - oy
        if self.geometry.wall_distance(x, y)[0] <= self.geometry.wall_distance(ox, oy)[0]:
            return none  # it lay nearer the wall: its shared sightings are its own path's
        return ([tr.times[k], *(tr.times[m] for m in mine)], [x, *(tr.xs[m] for m in mine)],
                [y, *(tr.ys[m] for m in mine)])

    @staticmethod
    def _apart_path(tr: DieTrack):
        """The sightings of ``tr`` once apart from the blob it shared with another die: the
        blob's centre is the pair's mean, neither die's, so a die that struck the wall inside
        the blob shows its strike only from there on (first seen leaving the wall). Empty if
        it shared none."""
        after = next((k for k, f in enumerate(tr.frames) if f > tr.shared_until), None)
        if tr.shared_with is None or not after:
            return [], [], []
        return tr.times[after:], tr.xs[after:], tr.ys[after:]

    def left_area(self, xs: list[float], ys: list[float], gone: bool, vel=(0.0, 0.0)) -> bool:
        """Whether a path's centre left the area (R-I1 ``any_time``), at the frame rate seen so
        far (see ``TableGeometry.left_area``)."""
        return self.geometry.left_area(xs, ys, gone, vel, self._dt)

    # ----------------------------------------------------------------- rest
    def _is_ghost(self, tr: DieTrack, work: np.ndarray) -> bool:
        """A still blob that is the background's fault: a die that lay there when the
        background was learnt and has since been picked up. The felt is now where the die was,
        so the background patch shows more contrast (pips, edges) than the frame does."""
        x, y, w, h = tr.bbox
        x0, y0 = max(0, x - 1), max(0, y - 1)
        cur = work[y0 : y + h + 1, x0 : x + w + 1].reshape(-1, 3).astype(np.float32)
        bg = self._bg8[y0 : y + h + 1, x0 : x + w + 1].reshape(-1, 3).astype(np.float32)
        if len(cur) < 4:
            return False
        return float(bg.std(axis=0).sum()) > 1.5 * float(cur.std(axis=0).sum())

    def _heal(self, tr: DieTrack, work: np.ndarray) -> None:
        """Take the frame as the background where a ghost was."""
        x, y, w, h = tr.bbox
        x0, y0 = max(0, x - 2), max(0, y - 2)
        x1, y1 = x + w + 2, y + h + 2
        self._bg[y0:y1, x0:x1] = work[y0:y1, x0:x1]
        self._bg8[y0:y1, x0:x1] = work[y0:y1, x0:x1]
        self._felt_hue = None

    def _fill_from_twins(self, dice: list[DieTrack]) -> None:
        """A lost track born as the twin of a die's blob (``_twin``) and not needed for the
        dice's count was that die seen twice: where it saw the die on frames the die's own
        track did not (lost for a frame at the wall, its twin kept it), those sightings are
        the die's (dev 87337: the twin held the frame of its strike)."""
        reach = self.settings.throw_speed * self._die * self._dt
        for tw in self._tracks:
            if not (tw.gone and tw.moved) or tw in dice:
                continue
            for tr in dice:
                if tw.shared_with == tr.ident or tr.shared_with == tw.ident:
                    tr.fill_from(tw, reach)
                    break

    def _one_die_seen_twice(
        self, frame: np.ndarray, found: list[DieTrack], silhouettes: RestSilhouettes
    ) -> list[DieTrack]:
        """The resting dice, less a second track on one die: two tracks at rest closer than
        two dice lie whose pixels (shadows left out, on the full-resolution rest frame) are
        too few for two dice. A die with its long shadow makes a blob too big for one die in
        the work image, so it may be followed as two."""
        die = self._die
        h, w = frame.shape[:2]
        out = list(found)
        for a, b in itertools.combinations(found, 2):
            if a not in out or b not in out:
                continue
            (ax, ay), (bx, by) = a.last, b.last
            if math.hypot(ax - bx, ay - by) >= 1.2 * die:
                continue
            r = int(die) + 2
            x0, y0 = max(0, int(min(ax, bx)) - r), max(0, int(min(ay, by)) - r)
            x1, y1 = min(w, int(max(ax, bx)) + r + 1), min(h, int(max(ay, by)) + r + 1)
            roi = frame[y0:y1, x0:x1]
            felt = silhouettes.felt(x0, y0, x1, y1, roi)
            if felt is None or felt.shape != roi.shape:
                continue
            mask, xx, yy = silhouettes.die_mask(roi, felt, x0, y0)
            on = mask > 0
            if int(on.sum()) >= 1.4 * die * die:
                continue  # room for two dice
            near_a = (xx - ax) ** 2 + (yy - ay) ** 2 < (xx - bx) ** 2 + (yy - by) ** 2
            mine_a = int((on & near_a).sum())
            out.remove(b if mine_a >= int(on.sum()) - mine_a else a)
        return out

    def _observe(
        self, frame: np.ndarray, work: np.ndarray, t: float, index: int | None = None
    ) -> ThrowObservation:
        """The observation of the throw, on ``frame`` (its work-res copy ``work``, taken at
        time ``t``, frame ``index``: by default the current one; an earlier rest frame when a
        hand came to the dice before they were read): the dice at rest and those lost
        (``_dice_of_the_throw``), their rest boxes and readings (``_read_at_rest``), the
        cocked cues, then each die's wall strike and area (``_die_at_rest``, ``_die_lost``)."""
        frame = self._full(frame)
        if index is None:
            index = self.frame_index
        else:  # what the tracks saw after the rest frame is the hand's doing
            for tr in self._tracks:
                keep = sum(1 for f in tr.frames if f <= index)
                del tr.frames[keep:], tr.times[keep:], tr.xs[keep:], tr.ys[keep:]
            self._tracks = [tr for tr in self._tracks if tr.frames]
        found, gone = self._dice_of_the_throw(work)
        silhouettes = RestSilhouettes(
            self.geometry,
            self._start_image,
            self._bg8,
            self._s,
            self._size,
            self._hand_seen,
            self.settings.diff_threshold,
        )
        found = self._one_die_seen_twice(frame, found, silhouettes)
        boxes, readings = self._read_at_rest(frame, found, silhouettes)
        values, cocked = judge_cocked(
            silhouettes, self.settings.cocked, self.reader, frame, boxes, readings
        )
        dice = [
            self._die_at_rest(tr, boxes[i], readings[i] if i < len(readings) else None,
                              values[i] if i < len(values) else None, cocked[i], found + gone)
            for i, tr in enumerate(found)
        ] + [self._die_lost(tr, found + gone) for tr in gone]
        n_found = len(found)
        exp = self.settings.expected_dice
        obs = ThrowObservation(
            dice=dice,
            start_frame=self._start_frame,
            rest_frame=index,
            missing=max(0, exp - n_found),
            extra=max(0, n_found - exp),
            unmoved=sum(1 for tr in found if not tr.moved and tr.was_resting),
            start_time=self._start_time,
            rest_time=t,
        )
        if self.annotate:
            from vision.calibrate_view import draw_observation

            obs.snapshot = draw_observation(frame, self.calibration, obs)
        if self._lens is not None:  # the dice's points on the camera's image, as it was given
            self._lens.raw_observation(obs, self._size)
        self.state = IDLE
        self._rest_dice = [tr.last for tr in found]
        self._idle_mask = None
        self._tracks = []
        return obs

    def _dice_of_the_throw(self, work: np.ndarray) -> tuple[list[DieTrack], list[DieTrack]]:
        """The tracks that are dice of this throw: those found at rest (a ghost of a die that
        lay there before the throw healed into the background and left out) and those lost
        from view, as many as the dice missing at rest (more lost tracks than that were pieces
        of something else: a shadow's edge, a hand), their gaps filled from their twins."""
        found = [tr for tr in self._tracks if not tr.gone and len(tr.xs) >= 1]
        found = [tr for tr in found if tr.moved or len(tr.xs) >= 3]
        for tr in [tr for tr in found if not (tr.moved or tr.came_in or tr.was_resting)]:
            if self._is_ghost(tr, work):
                self._heal(tr, work)
                found.remove(tr)
        gone = [tr for tr in self._tracks if tr.gone and tr.moved]
        gone.sort(key=lambda tr: len(tr.xs), reverse=True)
        gone = gone[: max(0, self.settings.expected_dice - len(found))]
        self._fill_from_twins(found + gone)
        return found, gone

    def _read_at_rest(self, frame: np.ndarray, found: list[DieTrack],
                      silhouettes: RestSilhouettes) -> tuple[list, list]:
        """Each die's rest box on the full-resolution ``frame`` and the reader's readings of
        them (none without a reader)."""
        boxes = [silhouettes.rest_box(frame, tr, [o for o in found if o is not tr])
                 for tr in found]
        readings: list[Any] = []
        if self.reader is not None and boxes:
            # the reader looks for the die near the box's size: a silhouette swollen by a
            # shadow or a die leaning on it must not make it look for a bigger die
            lo, hi = 0.8 * self._die, 1.3 * self._die
            sized = [
                (c, (min(max(w, lo), hi), min(max(h, lo), hi)), a) for c, (w, h), a in boxes
            ]
            readings = list(self.reader.read_at(frame, sized, die_px=self._die))
        return boxes, readings

    def _struck_wall(self, tr: DieTrack, dice: list[DieTrack]) -> bool:
        """Whether die ``tr`` struck the back wall by its path (``hit_wall``, the other
        ``dice`` beside it): its own path, its sightings apart from a blob it shared, or its
        place unmixed from that blob (``_own_path``, ``_apart_path``, ``_unmixed_path``)."""
        others = [o for o in dice if o is not tr]
        return (self.hit_wall(*self._own_path(tr, dice), others)
                or self.hit_wall(*self._apart_path(tr), others)
                or self.hit_wall(*self._unmixed_path(tr, dice), others))

    def _die_at_rest(self, tr: DieTrack, box, reading, value, cocked: bool,
                     dice: list[DieTrack]) -> DieObservation:
        """The observation of a die found at rest (its rest ``box``, ``reading``, judged
        ``value`` and ``cocked``; ``dice``: every die of the throw)."""
        cx, cy = box[0]
        moved = tr.moved or tr.came_in or not tr.was_resting
        # rule 6: at rest against the wall, it touched it (a die that did not move lies
        # where it lay before the throw: its place says nothing of this throw)
        at_wall = moved and self.geometry.rests_at_wall(self.geometry.rest_gap(box, self._view))
        return DieObservation(
            value=value,
            confidence=0.0 if reading is None else float(reading.confidence),
            cocked=cocked,
            hit_wall=self._struck_wall(tr, dice) or at_wall,
            left_area=self.left_area(tr.xs, tr.ys, False),
            at_rest_in_area=self.geometry.inside(cx, cy),
            center=(cx, cy),
            track=list(zip(tr.frames, tr.xs, tr.ys, strict=True)),
            moved=moved,
            box=box,
        )

    def _die_lost(self, tr: DieTrack, dice: list[DieTrack]) -> DieObservation:
        """The observation of a die lost from view (judged where it was heading)."""
        return DieObservation(
            value=None,
            confidence=0.0,
            cocked=False,
            hit_wall=self._struck_wall(tr, dice),
            left_area=self.left_area(tr.xs, tr.ys, True, tr.velocity()),
            at_rest_in_area=False,
            center=None,
            track=list(zip(tr.frames, tr.xs, tr.ys, strict=True)),
            moved=True,
        )
