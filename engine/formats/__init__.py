"""Match record file formats: .mat files read (:mod:`engine.formats.mat`), checked against the
engine (:mod:`engine.formats.mat_check`) and written (:mod:`engine.formats.mat_write`)."""
