"""A recorded game shown move by move: as a self-contained HTML page that steps through it
(:mod:`~coinprint.playback.page`) and as an animated image or video to share
(:mod:`~coinprint.playback.timelapse`)."""
