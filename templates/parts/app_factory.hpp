std::unique_ptr<Worker> make_$pe$(Run& run);  // the worker of GPU $name$ ($file$)
