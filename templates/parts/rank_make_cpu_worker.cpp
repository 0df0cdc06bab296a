workers.push_back(std::make_unique<$cls$>(run$mpi$));
