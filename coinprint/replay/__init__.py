"""A recorded game shown move by move: as a self-contained HTML page that steps through it
(:mod:`~coinprint.replay.page`) and as an animated image or video to share
(:mod:`~coinprint.replay.timelapse`)."""
