"""vision.camera_view: the camera's tilt and view angle from the marked area's quadrilateral."""

import math

import numpy as np
import pytest

from vision.camera_view import CameraView, CameraViewError, assumed_focal_px
from vision.simulator.scene import DIE_MM, Table


class Pinhole:
    """A camera over a felt (world mm: x along the wall, y from the wall toward the shooter,
    z up) tilted ``toward_deg`` toward the wall and ``side_deg`` about the table's length."""

    def __init__(self, size, f, toward_deg, side_deg, height=700.0, foot_y=420.0):
        self.size, self.f = size, f
        t, s = -math.radians(toward_deg), math.radians(side_deg)
        down = np.array([0.0, 0.0, -1.0])
        rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
        ry = np.array([[math.cos(s), 0, math.sin(s)], [0, 1, 0], [-math.sin(s), 0, math.cos(s)]])
        z = ry @ rx @ down  # the optical axis, tipped toward the wall (-y) and sideways
        x = np.cross(z, [0.0, 1.0, 0.0])  # image right: along the wall
        x /= np.linalg.norm(x)
        y = np.cross(x, z)  # image down: toward the shooter (a mirrored frame, as the
        # simulator's: the felt seen as from above)
        self.rot = np.stack([x, y, z])
        self.centre = np.array([0.0, foot_y, height])

    def project(self, pts):
        pc = (np.asarray(pts, float) - self.centre) @ self.rot.T
        w, h = self.size
        return np.stack([self.f * pc[:, 0] / pc[:, 2] + (w - 1) / 2,
                         self.f * pc[:, 1] / pc[:, 2] + (h - 1) / 2], 1)

    def slope_toward(self, px):
        """The true tangent of the view angle toward the wall (-y) at the felt point seen at px."""
        w, h = self.size
        ray = self.rot.T @ np.array([px[0] - (w - 1) / 2, px[1] - (h - 1) / 2, self.f])
        return float(-ray[1] / -ray[2])


def view_of(cam, x0=-250.0, x1=250.0, y0=0.0, y1=420.0):
    corners = cam.project([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]])
    wall = (tuple(corners[0]), tuple(corners[1]))
    return CameraView.from_area([tuple(p) for p in corners], wall, cam.size), corners


def test_two_vanishing_points_give_the_focal_length_and_the_tilt():
    cam = Pinhole((640, 480), f=600.0, toward_deg=14.0, side_deg=9.0)
    view, corners = view_of(cam)
    assert view.focal_found
    assert view.focal_px == pytest.approx(600.0, rel=0.03)
    true_tilt = math.degrees(math.acos(-cam.rot[2] @ [0.0, 0.0, 1.0]))
    assert view.tilt_deg == pytest.approx(true_tilt, abs=0.3)
    wall_mid = (corners[0] + corners[1]) / 2
    assert view.slope(*wall_mid)[0] == pytest.approx(cam.slope_toward(wall_mid), abs=0.01)
    # the view angle grows toward the wall for a camera in front of the table
    near = (corners[2] + corners[3]) / 2
    assert view.slope(*wall_mid)[0] > view.slope(*near)[0]


def test_corner_order_and_direction_do_not_matter():
    cam = Pinhole((640, 480), f=600.0, toward_deg=14.0, side_deg=9.0)
    view, corners = view_of(cam)
    wall = (tuple(corners[1]), tuple(corners[0]))  # the wall drawn right to left
    turned = CameraView.from_area([tuple(p) for p in corners[[2, 1, 0, 3]]], wall, cam.size)
    mid = (corners[0] + corners[1]) / 2
    assert turned.slope(*mid)[0] == pytest.approx(view.slope(*mid)[0], abs=1e-6)
    assert turned.tilt_deg == pytest.approx(view.tilt_deg, abs=1e-6)


@pytest.mark.parametrize("tilt", [0.0, 7.0, 15.0])
def test_one_vanishing_point_with_the_lens_known_is_exact(tilt):
    table = Table((640, 480), tilt_deg=tilt)
    cal, cam = table.calibration, table.camera
    view = CameraView.from_area(cal.area, cal.back_wall, table.size, focal_px=cam.f)
    assert not view.focal_found
    assert view.tilt_deg == pytest.approx(tilt, abs=0.15)  # the area's corners are rounded
    wall = np.mean(np.array(cal.back_wall), axis=0)
    foot = cam.unproject(wall[None], z=DIE_MM / 2)[0]
    true = (cam.centre[1] - foot[1]) / (cam.centre[2] - foot[2])
    assert view.slope(*wall)[0] == pytest.approx(true, abs=0.005)


@pytest.mark.parametrize("tilt, err", [(0.0, 0.1), (7.0, 0.06), (15.0, 0.02)])
def test_one_vanishing_point_with_the_lens_assumed_errs_within_what_docs_say(tilt, err):
    """The simulator's lens is 35 degrees wide at 640x480, the assumed one 53: the view angle
    at the wall is off by up to 0.1 (a camera looking straight down), less as it tilts."""
    table = Table((640, 480), tilt_deg=tilt)
    cal, cam = table.calibration, table.camera
    view = CameraView.from_area(cal.area, cal.back_wall, table.size)
    assert not view.focal_found
    assert view.focal_px == pytest.approx(assumed_focal_px(table.size))
    wall = np.mean(np.array(cal.back_wall), axis=0)
    foot = cam.unproject(wall[None], z=DIE_MM / 2)[0]
    true = (cam.centre[1] - foot[1]) / (cam.centre[2] - foot[2])
    assert abs(view.slope(*wall)[0] - true) <= err
    assert view.tilt_deg <= tilt + 0.2  # a wider lens than the true one: less tilt for the same area


def test_assumed_lens_follows_the_frame_shape():
    assert assumed_focal_px((1280, 720)) == pytest.approx(640 / math.tan(math.radians(33)))
    assert assumed_focal_px((640, 480)) == pytest.approx(320 / math.tan(math.radians(26.5)))
    assert assumed_focal_px((640, 480), 90.0) == pytest.approx(320.0)
    with pytest.raises(CameraViewError, match="field of view"):
        assumed_focal_px((640, 480), 0.0)


def test_an_area_that_is_no_quadrilateral_is_refused():
    with pytest.raises(CameraViewError, match="4 corners"):
        CameraView.from_area([(0, 0), (10, 0), (5, 5)], ((0, 0), (10, 0)), (640, 480))
    with pytest.raises(CameraViewError, match="one line"):
        CameraView.from_area([(0, 0), (10, 0), (10, 0), (0, 0)], ((0, 0), (10, 0)), (640, 480))
    with pytest.raises(CameraViewError, match="focal_px"):
        CameraView.from_area([(100, 100), (500, 100), (520, 400), (80, 400)],
                             ((100, 100), (500, 100)), (640, 480), focal_px=-1.0)
