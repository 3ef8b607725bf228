"""The generated people of the speaker benches, as crates/test-support's PEOPLE:
an espeak-ng voice variant and a pitch each (people differ in both; espeak's
variants alone are closer to each other than people are)."""
VOICES = [("en-us+m7", 35), ("en-gb+f3", 70), ("en-us+m1", 55), ("en-us+f1", 85),
          ("en-us+croak", 20)]
