$cls$::$cls$(Run& run$mpi$) : $init$ {
  $body$
}

