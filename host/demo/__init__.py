"""A recorded game night: bot-played games turned into what a table camera and device see.

For each game a seeded bot session is the ground truth. :mod:`host.demo.scripts` turns its
log into a table script (host/script.py): the frames the camera would see after each event,
the buttons pressed, and — only where no camera or button could know — entries by hand.
Replaying the script through the referee must end with the ground truth's scores.
"""
