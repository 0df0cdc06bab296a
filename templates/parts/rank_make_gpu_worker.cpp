workers.push_back(make_$pe$(run));
