/// $doc$
namespace $ns$ {

