// $dir$ host $peer$, tag $tag$$memory$
$m$.emplace(mpi, mpi.rank_of_host($host$), $tag$, $bytes$, "$name$");
