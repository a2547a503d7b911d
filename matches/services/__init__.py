"""Every state change of the matches app. Each public function is ``<entity>_<action>``, runs in
one transaction and says what it changes and what it raises."""
