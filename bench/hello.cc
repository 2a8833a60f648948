// The floor a whole-process lookup is compared with: a C++ program that starts, prints a line
// through iostream and exits, built with the same compiler and flags as gpuerr.
#include <iostream>

int main() {
  std::cout << "hello, world\n";
  return 0;
}
