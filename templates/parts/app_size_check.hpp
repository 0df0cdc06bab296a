    {"$type$", "$elem$[$count$]", "$names$", sizeof($cxx$), count_$type$},
