"""Where a die lies on the table, and what its path did there: touched the back wall
(``hit_wall``) or left the area (``left_area``, R-I1).

``hit_wall`` comes from the physics of a tumbling cube (``WallContact``): a frame where the die
touches the wall, a rebound (the velocity toward the wall reverses) turning within reach of it,
also between frames, an abrupt stop against it, a die first seen leaving it, or a die at rest
against it (its rest box's corner nearest the wall, ``rests_at_wall``); a reversal
beside the other die lying between it and the wall is not the wall's. ``left_area``: the centre (or the straight path
between two frames) was outside the area after the die had been inside it, or it never was
inside; a die lost from view is judged where it was heading, the back wall stopping it.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration import Calibration


def segment_distance(p, a, b) -> float:
    """Distance from point p to the segment a-b."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n = dx * dx + dy * dy
    f = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / n))
    return math.hypot(p[0] - ax - f * dx, p[1] - ay - f * dy)


@dataclass(frozen=True)
class WallContact:
    """How a path shows that a die touched the back wall; distances in die edges (``die_px``)
    from the wall line, the die's centre as the camera sees it.

    A cube's centre is half an edge from a wall it touches flat, and up to half a space
    diagonal (0.87 edge) when it touches edge- or corner-first, tumbling. The camera adds to
    that: a die blurred over its exposure is seen at the mean of its path, which at a rebound
    is farther out than the contact (by up to a quarter of its travel per frame); its shadow
    and the sides a tilted camera sees move the centre seen by up to ~0.15 edge more.

    :param touch: a centre seen this close on any frame touches (even a flat die a little
        off the line, on a camera that sees its sides).
    :param reach: a rebound (toward the wall, then away) whose turn lies within this touched
        it: 0.87 for the tumbling cube, ~0.38 for what the camera adds. A die turned by the
        other die lying against the wall has its centre at least 1.5 edges out (half an edge
        for the die at the wall, a full edge between the two centres), so the two stay apart.
        The most any rebound may lie out; one seen on both sides (its approach and departure
        lines) has a reach of its own, as far as its speed can blur it (``cube_reach``...).
    :param cube_reach: ...a rebound seen on both sides touched the wall if its turn lies
        within this (half a space diagonal: a tumbling cube strikes corner-first)...
    :param view_shift: ...plus this, what the die's shadow and the sides a tilted camera sees
        move its centre seen...
    :param blur_share: ...plus this share of the way it travels in a frame interval at its
        speed in or out, the faster: a die streaked over its exposure is seen at the mean of
        its path, which on the frame of the turn lies up to half its streak out from the
        contact. A die settling slowly by the wall is seen sharp where it is: one that turns
        1.2 edges out at 7 edges/s (0.06 edge a frame at 120 fps) never touched it.
    :param min_speed: the speed toward and then away from the wall (edges/s) that makes a
        rebound: above the jitter of a still die's centre. At a high frame rate the centre's
        own uncertainty (``TableGeometry.centre_px``, each of two sightings) over one frame
        interval is more, and is the bar instead.
    :param stop_speed: a die coming at the wall at least this fast (edges/s) that is still on
        the next frame, or on the one after...
    :param stop_decel: ...having lost that speed at this rate (edges/s per second) or more
        from one frame interval to the next, stopped against it (a die leaning there, a dead wall): 600 edges/s² is ~10 m/s² for a
        16 mm die, twice what the felt's friction (mu ~0.5) can take off.
    :param restitution: the least share of its speed toward the wall that a die keeps
        leaving it (a rebound unseen for some frames: how fast it could have come in).
    :param born_frames: a die first seen moving away from the wall, traced back at its own
        speed over this many frame intervals, reaching ``reach``: it had turned there before it
        was seen (fast, blurred). The reach so grows with the speed and the frame interval: a
        die leaving at 40 edges/s is 2.7 edges out two frames later at 30 fps, 0.7 at 120.
    :param leave_speed: a die first seen within reach of the wall, not moving toward or away
        from it on its first step, then leaving it at least this fast (edges/s), was first seen
        at its turn: the frame of its strike, blurred over its way in and out (a die rocking
        by the wall moves a few edges/s; only the wall sends a die sitting at it off that fast).
    :param other_reach: a reversal with another die's centre within this...
    :param other_nearer: ...that lies at least this much nearer the wall is that die's doing.
        The die is judged where it turned (a rebound's turn; a die first seen leaving the
        wall, where its path traced back at the speed it left turned), not where a blurred frame
        shows it: two dice that strike the wall side by side lie as near it at their turns.
    :param other_window_s: the other die's sighting nearest in time, if this near.
    :param rest_gap: a die at rest whose nearest corner lies within this of the wall line
        (``TableGeometry.rest_gap``: its rest box's corner, the top seen wall-ward of the
        felt moved back by the camera's view) touches the wall, so it touched it (rule 6, a
        die drifting onto the wall too softly for a rebound or a stop). Dice lying flat
        against the wall at rest measure -0.2..+0.12 edge on the dev sets, so 0.15 (2.4 mm on
        a 16 mm die) is the bar to set. 0 (the default): off, since it mended no dev throw and
        only adds hits, and a false hit pays a throw that was void (docs/replay.md).
    """

    touch: float = 0.62
    reach: float = 1.25
    cube_reach: float = 0.87
    view_shift: float = 0.15
    blur_share: float = 0.5
    min_speed: float = 2.0
    stop_speed: float = 15.0
    stop_decel: float = 600.0
    restitution: float = 0.3
    born_frames: float = 2.0
    leave_speed: float = 15.0
    other_reach: float = 1.6
    other_nearer: float = 0.4
    other_window_s: float = 0.05
    rest_gap: float = 0.0


class TableGeometry:
    """The area and the back wall of a calibration, in full-resolution pixels.

    :param calibration: where the area, the back wall and the dice's size lie in the image.
    :param contact: how a path shows a wall contact (the defaults: a tumbling die).
    :param centre_px: how far a die's centre as found may lie from where it is (px; the
        tracker finds blobs on a shrunk copy of the frame, where a resting die's centre steps
        by up to half a pixel from frame to frame). Over two sightings a frame apart that is a
        speed (``WallContact.min_speed``).
    """

    def __init__(self, calibration: Calibration, contact: WallContact | None = None,
                 centre_px: float = 0.0) -> None:
        die = calibration.die_px
        self.contact = contact or WallContact()
        self.centre_px = centre_px
        px, py = zip(*calibration.area, strict=True)
        self.area_poly = np.array(calibration.area, np.float32).reshape(-1, 1, 2)
        self.area_centroid = (float(np.mean(px)), float(np.mean(py)))
        (x1, y1), (x2, y2) = calibration.back_wall
        length = math.hypot(x2 - x1, y2 - y1)
        if length < 1:
            raise ValueError("back_wall's two points coincide: recalibrate the back wall")
        self.wall_p = (x1, y1)
        self.wall_u = ((x2 - x1) / length, (y2 - y1) / length)
        self.wall_len = length
        nx, ny = -self.wall_u[1], self.wall_u[0]
        cx, cy = self.area_centroid
        if (cx - x1) * nx + (cy - y1) * ny < 0:  # the normal points into the table
            nx, ny = -nx, -ny
        self.wall_n = (nx, ny)
        # the area's edges with outward normals; the front edge is the one farthest from the wall
        self.edges = []
        far, self.front_edge = -1e18, 0
        pts = list(calibration.area)
        for k, a in enumerate(pts):
            b = pts[(k + 1) % len(pts)]
            ex, ey = b[0] - a[0], b[1] - a[1]
            el = math.hypot(ex, ey) or 1.0
            enx, eny = ey / el, -ex / el
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            if (cx - mx) * enx + (cy - my) * eny > 0:  # make it point out of the area
                enx, eny = -enx, -eny
            self.edges.append((a, b, (enx, eny)))
            dwall = (mx - x1) * nx + (my - y1) * ny
            if dwall > far:
                far, self.front_edge = dwall, k
        self.die = die

    def wall_distance(self, x: float, y: float) -> tuple[float, float]:
        """(signed distance from the wall line, positive on the table; position along it 0..1)."""
        px, py = x - self.wall_p[0], y - self.wall_p[1]
        d = px * self.wall_n[0] + py * self.wall_n[1]
        u = (px * self.wall_u[0] + py * self.wall_u[1]) / self.wall_len
        return d, u

    def hit_wall(
        self,
        times: list[float],
        xs: list[float],
        ys: list[float],
        others: list[tuple[list[float], list[float], list[float]]] = (),
    ) -> bool:
        """Whether a path touched the back wall (see ``WallContact`` and docs/replay.md).

        :param times: seconds of each sighting; ``xs``, ``ys``: the die's centre then (px).
        :param others: the other dice's paths, ``(times, xs, ys)`` each: a reversal next to a
            die lying between this one and the wall is that die's doing, not the wall's.
        """
        return bool(self.wall_contacts(times, xs, ys, others))

    def wall_contacts(
        self,
        times: list[float],
        xs: list[float],
        ys: list[float],
        others: list[tuple[list[float], list[float], list[float]]] = (),
    ) -> list[tuple[str, float, float]]:
        """Every way the path shows a wall contact: ``(kind, time, distance in die edges)``,
        kind "touch", "rebound", "stop" or "born" (see ``WallContact``)."""
        w = self.contact
        die = self.die
        n = len(xs)
        if n == 0:
            return []
        dist = [self.wall_distance(x, y) for x, y in zip(xs, ys, strict=True)]
        d = [float(a) / die for a, _ in dist]  # die edges from the wall line (float64: the
        # tracker's centres may be float32, too coarse to place a turn exactly on a frame)
        margin_u = 0.5 * die / self.wall_len
        along = [-margin_u <= u <= 1 + margin_u for _, u in dist]
        found: list[tuple[str, float, float]] = []

        def speed(a: int, b: int) -> float | None:  # die edges per second, away from the wall
            dt = times[b] - times[a]
            return (d[b] - d[a]) / dt if dt > 0 else None

        def other_between(k: int, t: float, out: float | None = None, at=None) -> bool:
            """Another die lay between this one and the wall, close enough to have turned it:
            nearer the wall than this one, within reach of it. This one judged at ``at`` (x,
            y; by default where it was seen at sighting ``k``), ``out`` die edges from the
            wall (by default where ``at`` lies)."""
            px, py = (xs[k], ys[k]) if at is None else at
            if out is None:
                out = d[k] if at is None else max(0.5, self.wall_distance(px, py)[0] / die)
            for ot, ox, oy in others:
                if not ot:
                    continue
                j = min(range(len(ot)), key=lambda m: abs(ot[m] - t))
                if abs(ot[j] - t) > w.other_window_s:
                    continue
                od, _ = self.wall_distance(ox[j], oy[j])
                if (math.hypot(ox[j] - px, oy[j] - py) <= w.other_reach * die
                        and od / die <= out - w.other_nearer):
                    return True
            return False

        steps = [b - a for a, b in itertools.pairwise(times) if b > a]
        frame_dt = min(steps) if steps else 0.0  # the camera's frame interval
        # the least speed that is motion, not the centre's uncertainty on two sightings
        slow = max(w.min_speed, 2 * self.centre_px / die / frame_dt) if frame_dt else w.min_speed
        # 1. seen touching: no tumbling die's centre can be this close without contact
        for k in range(n):
            if along[k] and d[k] <= w.touch:
                found.append(("touch", times[k], d[k]))
                break
        # 2. a rebound: toward the wall, then away, turning within reach of it; the contact
        # (often between frames) where the approach and the departure lines cross
        for i in range(1, n - 1):
            if not (along[i] and d[i - 1] > d[i] <= d[i + 1]):
                continue
            contact = min(
                (c for c in (self._crossing_turn(d, times, i, speed, frame_dt, slow),
                             self._turn_in_gap(d, times, i, speed, frame_dt, slow))
                 if c is not None and c <= w.reach),
                default=None,
            )
            # judged where it turned, not where it was seen: a blurred die seen on the frame of
            # its contact lies farther out than it struck, beside the other die at the wall
            if contact is not None and not other_between(i, times[i], contact):
                found.append(("rebound", times[i], contact))
        # 3. stopped against the wall: came at it fast and lost that speed within a frame or
        # two, faster than felt and tumbling can slow a die; it stays there (no rebound seen)
        for i in range(1, n - 1):
            if not along[i] or d[i] > w.reach:
                continue
            vout = speed(i, i + 1)
            if vout is None or abs(vout) > slow or other_between(i, times[i]):
                continue
            for j in (i - 1, i - 2):
                vin = speed(j, j + 1) if j >= 0 else None
                if vin is None or vin > -w.stop_speed:
                    continue
                if j == i - 1 or self._sharpest_slowing(times, speed, j, i) >= w.stop_decel:
                    found.append(("stop", times[i], d[i]))
                    break
            if found and found[-1][0] == "stop":
                break
        # 4. first seen leaving the wall: a die thrown from the shooter's side that is first
        # seen moving away from the wall close to it had turned there (unless the other die
        # lay between)
        if n >= 3 and along[0]:
            v1, v2 = speed(0, 1), speed(1, 2)
            if v1 is not None and v2 is not None and v1 >= slow and v2 >= slow:
                dt = times[1] - times[0]
                back = d[0] - v1 * w.born_frames * dt
                # the other die between it and the wall (on its first two sightings) turned
                # it; the die itself is judged where it turned, before it was seen: its path
                # traced back at the speed it left to ``back`` (a centre is never nearer the
                # wall than half an edge)
                turn = max(back, 0.5)
                f = (d[0] - turn) / (d[1] - d[0])  # frame intervals back from sighting 0
                at = (xs[0] - f * (xs[1] - xs[0]), ys[0] - f * (ys[1] - ys[0]))
                if back <= w.reach and not (other_between(0, times[0], turn, at)
                                            or other_between(1, times[1], turn, at)):
                    found.append(("born", times[0], back))
        # 5. first seen at its turn: first made out on the frame of its strike (blurred, seen at
        # the mean of its way in and out, so its first step is neither), then leaving fast. It
        # is judged where it turned, nearer than that mean, as a rebound is: a die lying at the
        # wall beside it no more turned it than it turns a die striking the wall beside it
        turned = self._born_at_turn(d, times, along, speed, frame_dt, slow)
        if turned is not None and not (other_between(0, times[0], turned)
                                       or other_between(1, times[1], turned)):
            found.append(("born", times[0], turned))
        return found

    def _born_at_turn(self, d: list[float], times: list[float], along: list[bool], speed,
                      frame_dt: float, slow: float) -> float | None:
        """How far out a path that begins at its turn turned, or None: its first step slower
        than ``slow`` either way, the two after it leaving the wall steadily, one of them at
        ``leave_speed`` or more, and its first two sightings within the reach a rebound at that
        speed has (``cube_reach``, ``view_shift`` and ``blur_share`` of the way it travels in
        a frame interval leaving: it came in at least as fast). It turned nearer than it was
        seen by that share of its travel (the blur), never nearer than half an edge."""
        w = self.contact
        if len(d) < 4 or not (along[0] and along[1]):
            return None
        v0, v1, v2 = speed(0, 1), speed(1, 2), speed(2, 3)
        if v0 is None or v1 is None or v2 is None or abs(v0) >= slow:
            return None
        if min(v1, v2) < slow or max(v1, v2) < w.leave_speed:
            return None
        blur = w.blur_share * v1 * frame_dt
        if max(d[0], d[1]) > min(w.reach, w.cube_reach + w.view_shift + blur):
            return None
        return max(0.5, min(d[0], d[1]) - blur)

    @staticmethod
    def _sharpest_slowing(times: list[float], speed, j: int, i: int) -> float:
        """The most speed (edges/s per second) a path lost from one frame interval to the next
        between the interval from sighting ``j`` and the one from ``i``: each interval's speed is
        its mean, so the change is taken over the time between their middles. A die that lost
        most of its speed in one interval and the rest in the next shows it there, not averaged
        over both."""
        sharpest = 0.0
        for k in range(j, i):
            v0, v1 = speed(k, k + 1), speed(k + 1, k + 2)
            took = 0.5 * (times[k + 2] - times[k])
            if v0 is not None and v1 is not None and took > 0:
                sharpest = max(sharpest, (v1 - v0) / took)
        return sharpest

    def _crossing_turn(self, d: list[float], times: list[float], i: int, speed,
                       frame_dt: float, slow: float) -> float | None:
        """Where a path that comes nearest the wall at sighting ``i`` turned: the approach
        line and the departure line cross between ``i - 1`` and ``i + 1`` (a blurred die's
        centre at the turn is the mean of its way in and out, too far out); None if they do
        not, if either side is slower than ``slow`` (edges/s) or unsteady (jitter), or if the turn
        lies beyond the reach its speed allows (``cube_reach``, ``view_shift``,
        ``blur_share``)."""
        w = self.contact
        n = len(d)
        contact = None
        for a0, a1, b0, b1 in ((i - 1, i, i + 1, i + 2), (i - 2, i - 1, i, i + 1),
                               (i - 1, i, i, i + 1)):
            if a0 < 0 or b1 >= n:
                continue
            if a1 == b0 and not (
                # steady on either side where seen: jitter is not a rebound
                (i < 2 or d[i - 2] > d[i - 1]) and (i + 2 >= n or d[i + 2] > d[i + 1])
            ):
                continue
            va, vb = speed(a0, a1), speed(b0, b1)
            if va is None or vb is None or va > -slow or vb < slow:
                continue
            tm = (d[b0] - d[a1] + va * times[a1] - vb * times[b0]) / (va - vb)
            if not times[a1] - 1e-6 <= tm <= times[b0] + 1e-6:
                continue
            turn = min(d[a1], d[b0], d[a1] + va * (tm - times[a1]))
            blur = w.blur_share * max(-va, vb) * frame_dt
            if turn > w.cube_reach + w.view_shift + blur:  # a die this sharp seen this far out
                continue
            contact = turn if contact is None else min(contact, turn)
        return contact

    def _turn_in_gap(self, d: list[float], times: list[float], i: int, speed,
                     frame_dt: float, slow: float) -> float | None:
        """How near the wall a die unseen for some frames next to sighting ``i`` (its nearest
        seen) turned, by the time it had: from the sighting before the gap, in at speed
        ``u_in``, to the turn, and out at ``u_out`` to the sighting after. The speed out is the
        one seen leaving; the speed in at least that over ``restitution`` (a wall gives back
        at most what it takes, at least that share), or the one seen coming. None without a gap
        or without steady motion on the side seen."""
        w = self.contact
        n = len(d)
        if frame_dt <= 0:
            return None

        def turn(d_in: float, d_out: float, u_in: float, u_out: float, gap: float) -> float:
            return (d_in / u_in + d_out / u_out - gap) / (1 / u_in + 1 / u_out)

        out = []
        if times[i] - times[i - 1] > 1.5 * frame_dt and i + 1 < n:  # unseen before i
            vb = speed(i, i + 1)
            va = speed(i - 2, i - 1) if i >= 2 else None
            if vb is not None and vb >= slow and (i + 2 >= n or d[i + 2] > d[i + 1]):
                u_in = max(vb / w.restitution, -va if va is not None else 0.0)
                out.append(turn(d[i - 1], d[i], u_in, vb, times[i] - times[i - 1]))
        if times[i + 1] - times[i] > 1.5 * frame_dt and i + 2 < n:  # unseen after i
            va, vb = speed(i - 1, i), speed(i + 1, i + 2)
            if (va is not None and vb is not None and va <= -slow
                    and vb >= slow and (i < 2 or d[i - 2] > d[i - 1])):
                out.append(turn(d[i], d[i + 1], -va, vb, times[i + 1] - times[i]))
        if not out:
            return None
        return max(0.5, min(out))  # a centre is never nearer than half an edge

    def rest_gap(self, box, view=None) -> float:
        """How far (die edges) a die at rest lies from the wall line: its rest box's corner
        nearest the wall (``box``: the silhouette's min-area rectangle, ``((cx, cy), (w, h),
        angle)``), which is its top's corner (the sides a camera on the shooter's side sees
        lie away from the wall), moved back by the camera's ``toward`` there (``view``, a
        ``CameraView``): the top is an edge above the felt, seen that far wall-ward of the
        corner beneath it. A box off the wall's length lies as far as its centre."""
        corners = cv2.boxPoints(box)
        near = min(corners, key=lambda c: self.wall_distance(float(c[0]), float(c[1]))[0])
        d, u = self.wall_distance(float(near[0]), float(near[1]))
        margin = 0.5 * self.die / self.wall_len
        if not -margin <= u <= 1 + margin:
            return self.wall_distance(*box[0])[0] / self.die
        toward = 0.0
        if view is not None:
            try:
                toward = view.slope(float(near[0]), float(near[1]))[0]
            except ValueError:  # the corner above the felt's horizon: no view there
                toward = 0.0
        return d / self.die + toward

    def rests_at_wall(self, gap: float) -> bool:
        """Rule 6: a die at rest whose corner's gap to the wall (``rest_gap``, die edges) is
        within ``WallContact.rest_gap`` touches the wall, so it touched it (a die drifting onto
        the wall, too slowly for a rebound or a stop). Off at 0."""
        bar = self.contact.rest_gap
        return bar > 0 and gap <= bar

    def off_wall(self, x: float, y: float) -> tuple[float, float]:
        """A die's centre cannot be closer to the back wall than half a die: one seen closer (its
        top leans or flies toward the wall in a tilted camera's view) is judged at that limit."""
        d, u = self.wall_distance(x, y)
        half = 0.5 * self.die
        margin = half / self.wall_len
        if d < half and -margin <= u <= 1 + margin and d > -2 * self.die:
            push = half - d
            return x + push * self.wall_n[0], y + push * self.wall_n[1]
        return x, y

    def inside(self, x: float, y: float) -> bool:
        """Whether a die's centre lies in the area."""
        return self.depth(x, y) >= 0

    def depth(self, x: float, y: float) -> float:
        """Signed distance (px) of a die's centre from the area's edge, positive inside."""
        x, y = self.off_wall(x, y)
        return cv2.pointPolygonTest(self.area_poly, (float(x), float(y)), True)

    def beyond_front(self, x: float, y: float) -> bool:
        """Whether a point outside the area lies beyond its front edge (the shooter's side, the
        edge farthest from the back wall) rather than beyond a side."""
        nearest = min(
            range(len(self.edges)),
            key=lambda k: segment_distance((x, y), self.edges[k][0], self.edges[k][1]),
        )
        return nearest == self.front_edge

    def left_area(
        self, xs: list[float], ys: list[float], gone: bool, vel=(0.0, 0.0), dt: float = 1 / 60
    ) -> bool:
        """Whether a path's centre left the area (R-I1 ``any_time``).

        Dice come in over the front edge (the shooter's side), airborne, where a tilted camera
        sees them further in than they are: a die counts as in once its centre has been about
        half a die inside for a tenth of a second, and only then does being past the front edge
        count.
        Past a side edge (or the wall) counts at once. Out means past the edge by more than the
        centre's uncertainty (a tenth of a die); the straight path between two frames counts
        too. A die that never came in left the area.

        :param gone: the die was lost from view (its heading ``vel``, px/s, says where it went).
        :param dt: seconds between frames.
        """
        enter_at = 0.45 * self.die  # a die against the wall is judged half a die in
        out_at = -0.1 * self.die
        settle_in = max(2, int(round(0.1 / max(dt, 1e-3))))
        entered = False
        inside_run = 0
        prev = None
        for x, y in zip(xs, ys, strict=True):
            if prev is not None and entered:
                # The straight path between two frames: a die can cross a corner in between.
                for f in (0.25, 0.5, 0.75):
                    mx, my = prev[0] + f * (x - prev[0]), prev[1] + f * (y - prev[1])
                    if self.depth(mx, my) < out_at:
                        return True
            depth = self.depth(x, y)
            if depth >= enter_at:
                inside_run += 1
                # in for a tenth of a second: not a die flying over the edge
                entered = entered or inside_run >= settle_in
            else:
                inside_run = 0
                if depth < out_at and (entered or not self.beyond_front(*self.off_wall(x, y))):
                    return True
            prev = (x, y)
        if not entered:
            # a die that lies still is on the felt, where it is seen (no flight's parallax):
            # one short throw coming to rest just inside the front edge did come in
            return gone or not self._rests_inside(xs, ys, out_at)
        if gone:  # lost from view: where was it heading?
            x, y = xs[-1], ys[-1]
            return self.depth(*self.stopped_by_wall(x, y, x + vel[0] * 3 * dt,
                                                    y + vel[1] * 3 * dt)) < 0
        return False

    def _rests_inside(self, xs: list[float], ys: list[float], out_at: float,
                      still_sightings: int = 3) -> bool:
        """Whether a path ends lying still (its last ``still_sightings`` centres within a tenth
        of a die of each other) inside the area by more than the centre's uncertainty
        (``-out_at`` px)."""
        if len(xs) < still_sightings:
            return False
        last = list(zip(xs[-still_sightings:], ys[-still_sightings:], strict=True))
        x0, y0 = last[-1]
        return all(math.hypot(x - x0, y - y0) <= 0.1 * self.die and self.depth(x, y) >= -out_at
                   for x, y in last)

    def stopped_by_wall(self, x: float, y: float, tx: float, ty: float) -> tuple[float, float]:
        """Where a die going from (x, y) toward (tx, ty) ends up if the back wall is in its
        way: it cannot pass through the wall, so it stops where its centre is half an edge
        from the wall line (or where it is, if nearer already); (tx, ty) if the wall is not
        in the way, or if the die was seen past the wall line already (over the wall,
        airborne)."""
        d0, _ = self.wall_distance(x, y)
        d1, _ = self.wall_distance(tx, ty)
        half = 0.5 * self.die
        if d0 < 0 or d1 >= half or d1 >= d0:
            return tx, ty
        f = max(0.0, (d0 - half) / (d0 - d1))
        sx, sy = x + f * (tx - x), y + f * (ty - y)
        _, u = self.wall_distance(sx, sy)
        margin = half / self.wall_len
        return (sx, sy) if -margin <= u <= 1 + margin else (tx, ty)
