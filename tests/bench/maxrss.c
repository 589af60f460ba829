/* maxrss.c - run a command and print its peak resident set size in KiB
 * (the kernel's ru_maxrss of the finished child) on stdout.  Used by
 * scripts/bench.sh for the bytes each simulated thread costs.  Exits with
 * the command's status (125 if it could not be started). */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: maxrss COMMAND [ARG...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) { perror("maxrss: fork"); return 125; }
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror("maxrss: exec");
        _exit(125);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) { perror("maxrss: wait4"); return 125; }
    printf("%ld\n", ru.ru_maxrss);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 125;
}
