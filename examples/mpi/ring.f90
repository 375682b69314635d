! ring (Fortran) — the balanced ring of ring.c with the Fortran bindings: each rank computes,
! then sends to the right and receives from the left with MPI_SENDRECV, then all reduce.
! Usage: ring_f [ITERATIONS]
program ring
  use mpi
  implicit none
  integer, parameter :: n = 4096
  double precision :: out(n), in(n), total, local
  integer :: rank, nranks, ierr, it, iterations, pass, i
  integer :: status(MPI_STATUS_SIZE)
  character(len=16) :: arg

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  iterations = 4
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) iterations
  end if
  out = 1.0d0
  local = 0.0d0
  do it = 1, iterations
    do pass = 1, 50
      do i = 1, n
        out(i) = out(i) * 0.999d0 + 1.0d0
      end do
    end do
    call MPI_SENDRECV(out, n, MPI_DOUBLE_PRECISION, mod(rank + 1, nranks), it, &
                      in, n, MPI_DOUBLE_PRECISION, mod(rank + nranks - 1, nranks), it, &
                      MPI_COMM_WORLD, status, ierr)
    local = local + in(1)
  end do
  call MPI_ALLREDUCE(local, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,i0,a,f0.3)', 'ring (Fortran): ', nranks, ' ranks, ', total
  call MPI_FINALIZE(ierr)
end program ring
