Command exited with non-zero status 127
1184 KB 0.00 u 0.00 s 0.00 wall
