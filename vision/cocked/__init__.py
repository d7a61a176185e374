"""Whether a resting die is cocked, judged by geometry (``CockedSettings.geometric_cocked``) as
well as by the reader, once per throw on the full-resolution rest frame. A false flag costs
the operator a tap, a missed one a wrong payout: when in doubt, flag.

- The top-face cue (``top_face_shape``, ``foreshortened``): a die by the wall or the other
  die whose top face is foreshortened (cos of its tilt across it) is cocked; nothing clears
  it. It asks nothing of how a renderer or a camera draws a die beyond its geometry.
- The wall cue (``leans_on_wall``): from where the top face (the reader's centre) sits in the
  die's silhouette. A flat die seen by a camera tilted toward the back wall shows only its
  faces turned to the camera besides its top, so its top lies on the wall side of its
  silhouette; a die at the wall whose top does not (its top tipped away
  from the wall, the face that was against the wall showing) leans on the wall; the reader's
  graded belief (``cocked_share``) decides the close calls. A die whose front face shows as a
  flat die's does (``front_band``: its height as seen, between the top's front edge and the
  silhouette's, the view angle's ``toward`` from the area; its top whole by where its front
  edge lies or by its depth: ``whole_top``) is cleared: tipped away from the wall by t, a die
  turns its front face from the camera and shows sin t less. A die of the felt's colour, whose
  shaded front face passes for felt, has its band measured again on the silhouette that takes
  in the pixels off the felt's chromaticity (``wall_band_chroma``), where no other die is near.
  A die whose top, where its pips put it (``flat_by_pips``, ``vision.top_pips``: their mean is
  the face's centre), sits wall-ward of its silhouette after all is cleared too.
  So is one whose faces, found by their edge lines rather than their colour (``flat_by_rims``,
  ``rim_front``, ``vision.front_rim``: the top's front edge, the front face's rim, the side
  faces' rims), show a flat die's front face and no side face a flat die cannot show.
- The pair cue (``pairs``): of two dice lying closer than flat dice usually do, or touching
  as close as a die turned corner-on to the other can lean on it from, one leans on the other
  (a die comes to rest tilted only against something); felt between them that neither a die
  nor a shadow covers proves neither does (``silhouettes_touch``). If the wall cue finds one of
  them leaning on the wall, that explains the pair. Else the leaning one is the one scoring
  higher on: the reader's ``cocked_share`` (it saw the faces), less its confidence in the face
  (a tilted face reads less surely), plus how far its silhouette reaches past its top toward
  the other beyond a flat die's reach there (it tips its top away and shows the face that was
  against the other). What lies between the tops may prove both flat (``lie_flat_together``):
  tops that touch, a strip of felt wider than a lean's touch hides, or a band between them of
  the felt's chromaticity where a leaning die would show its own face (``band_between``).
- The lean model (``vision.die_lean``, the reader's ``lean``, with ``lean_model`` on): a small
  net that sees each resting die with its surroundings, the back wall up. Where it is there,
  the pair cue takes the die it believes leans more. It learnt from our simulator only, so it
  never clears a flag alone: a flag of the reader's alone on a die it reads (``lean_clear``)
  only where the top-face cue sees a square top, and a close pair only when the reader's and
  the silhouettes' score agrees, felt shows between them and both tops are square
  (``pair_min_lean``, ``pair_clear_score``, ``pair_clear_touching``, ``pair_clear_square``, and
  ``pair_wall_margin`` for a pair one of whose dice the wall cue flags; there it may add a
  flag on the other die, ``pair_wall_both``). It never clears a
  wall-cue flag: a square top does not confirm its "flat" there (a die leaning 10-20 degrees
  on the wall shows a top foreshortened by under 6%). It may add one: at the wall where it is
  all but sure (``wall_lean_keep``, ``wall_lean_sure``), and it keeps a close pair's flag that
  a proof would clear (``pair_lean_keep``).

One module per part, in the order ``judge_cocked`` runs them:

- ``settings``: ``CockedSettings`` (every field's meaning in its docstring) and what the cues
  ask of the reader (``Reader``, ``Reading``, ``LeanModel``);
- ``windows``: windows of the rest frame around the dice, with the felt before the throw;
- ``top_face``: the top face's region, shape, pips and square; the top-face cue;
- ``wall``: the wall cue, its proofs of a flat die, the wall-face cue, the unseen die and the
  lean model's keep at the wall;
- ``pair``: the pair cue and its proofs that two close dice lie flat;
- ``judge``: ``judge_cocked``, the cues run in turn and their flags combined.
"""
