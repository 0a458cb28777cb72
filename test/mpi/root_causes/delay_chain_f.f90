! The chain of delay_chain.c from Fortran (test/mpi/root_causes.sh), through
! the `use mpi` binding: ITER + 1 exchanges (rank r receives from r + 1,
! then sends to r - 1; MPI_PROC_NULL at the ends), each but the first after
! BASE_MS of compute on every rank and PLANT_MS more on the last rank
! (left out with --no-delay). "Compute" is a sleep.
!
!   delay_chain_f ITER BASE_MS PLANT_MS [--no-delay]
program delay_chain_f
    use mpi
    use iso_c_binding, only: c_int
    implicit none
    interface
        integer(c_int) function usleep(us) bind(C, name="usleep")
            import :: c_int
            integer(c_int), value :: us
        end function usleep
    end interface
    character(len=32) :: arg
    integer :: rank, size, ierr, iter, base, plant, i, up, down, rc
    integer :: got, token
    logical :: planted

    call MPI_INIT(ierr)
    call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, size, ierr)
    call get_command_argument(1, arg)
    read (arg, *) iter
    call get_command_argument(2, arg)
    read (arg, *) base
    call get_command_argument(3, arg)
    read (arg, *) plant
    call get_command_argument(4, arg)
    planted = arg /= '--no-delay'
    up = rank + 1
    if (up == size) up = MPI_PROC_NULL
    down = rank - 1
    if (down < 0) down = MPI_PROC_NULL
    token = 0
    do i = 0, iter
        if (i > 0) then
            rc = usleep(int(base * 1000, c_int))
            if (planted .and. rank == size - 1) rc = usleep(int(plant * 1000, c_int))
        end if
        got = 0
        call MPI_RECV(got, 1, MPI_INTEGER, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        token = got + 1
        call MPI_SEND(token, 1, MPI_INTEGER, down, 1, MPI_COMM_WORLD, ierr)
    end do
    if (rank == 0) print '(a,i0,a,i0,a,l1,a,i0)', 'delay_chain_f: ranks=', size, ' iter=', iter, &
        ' planted=', planted, ' token=', token
    call MPI_FINALIZE(ierr)
end program delay_chain_f
